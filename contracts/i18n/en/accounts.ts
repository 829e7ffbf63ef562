/**
 * Accounts texts the spec does not give (its own are in login, signup, profile and resetPassword): the labels the
 * account pages share, the user menu, and the messages the server and the web share.
 */
export const accounts = {
  emailVerified: 'Your email is verified.',
  verificationLinkInvalid: 'This verification link is invalid or has expired.',
  sessionEnded: 'Your session has ended. Sign in again.',

  /** Where the emailed reset link lands (/reset-password): its title and heading. */
  newPasswordHeading: 'Choose a new password',
  nameTooLong: 'Maximum {max} characters',
  emailTooLong: 'Maximum {max} characters',
  passwordTooLong: 'Maximum {max} characters',
  rateLimited: 'Too many attempts, please wait a few minutes and try again.',
  invalidResetLink: 'This reset link has expired or was already used. Please ask for a new one.',
  passwordChanged: 'Your password has been changed. Sign in with your new password.',
  verificationSent: 'We sent you a new verification link, check your inbox.',
  notVerified: 'Your email address is not verified yet.',
  resendVerification: 'Resend verification link',
  linkSent: 'Link sent',
  pictureTooLarge: 'The picture must be at most 5 MB.',
  pictureInvalid: 'Upload a JPEG, PNG or WebP picture of at most 5 MB.',
  pictureMissing: 'Choose a picture to upload (one file, in the multipart field "file").',
  pictureNotUploaded: 'Choose the picture again, then save.',
  /** English keeps the wording it always had, for every count. */
  tooManyPictures: {
    one: 'You have uploaded too many pictures. Please wait {count} seconds and try again.',
    other: 'You have uploaded too many pictures. Please wait {count} seconds and try again.',
  },
  notYourEmail: 'This is not the email address of your account',
  accountNotFound: 'Account not found',
  noSuchAuthRoute: 'No route for {method} {path}',
  languageInvalid: 'The language must be en or ar',

  email: 'Email',
  password: 'Password',
  showPassword: 'Show password',
  hidePassword: 'Hide password',
  firstName: 'First name',
  lastName: 'Last name',
  newPassword: 'New Password',
  confirmNewPassword: 'Confirm New Password',
  signIn: 'Sign In',
  signUp: 'Sign Up',
  saving: 'Saving',
  sendNewLink: 'Send me a new link',
  saveNewPassword: 'Save new password',

  accountMenu: 'Account menu',
  account: 'Account',
  yourBookings: 'Your Bookings',
  checkIn: 'Check-in',
  logout: 'Logout',
} as const;
