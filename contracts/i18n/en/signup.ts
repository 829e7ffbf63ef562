/** The sign-up page and the rules of names and passwords: the spec's texts word for word (spelling included), then ours. */
export const signup = {
  heading: 'Create a new account',
  namesRequired: 'Both fields are required',
  nameTooShort: 'Minimum 3 charachters required in each field',
  nameLettersOnly: 'Only characters are allowed',
  fieldRequired: 'This field is required',
  emailFormat: 'Email format: "{email}"',
  passwordTooShort: 'Minimum 6 charachters are required',
  passwordUppercase: 'Should start with uppercase letter',
  confirmMismatch: 'This field must match your Password',
  emailTaken: 'This Email is already registered, please choose another one',
  success: 'Account Created Successfully',
  alreadyRegistered: 'Already Registered?',
  alreadyRegisteredText: 'Sign in to manage your bookings and explore more events',
  alreadyHaveAccount: 'Already have an account?',

  confirmPassword: 'Confirm password',
  creatingAccount: 'Creating your account',
} as const;
