export const profileMessages = {
  heading: 'Edit Profile',
  saved: 'Your edits are saved successfully!',
} as const;
