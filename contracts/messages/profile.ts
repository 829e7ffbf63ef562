export const profileMessages = {
  saved: 'Your edits are saved successfully!',
} as const;
