/** The edit-profile page: the spec's texts, then ours. */
export const profile = {
  heading: 'Edit Profile',
  saved: 'Your edits are saved successfully!',

  changePicture: 'Change profile picture',
  uploadingPicture: 'Uploading your picture',
  edit: 'Edit',
  pictureFile: 'Profile picture file',
  pictureHint: 'JPEG, PNG or WebP, up to 5 MB',
  passwordHint:
    'Leave the password fields empty to keep your password. A new password signs you out on your other devices.',
  cancel: 'Cancel',
  continue: 'Continue',
} as const;
