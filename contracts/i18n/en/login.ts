/** The sign-in page: the spec's texts word for word (spelling included), then ours. */
export const login = {
  heading: 'Sign in to your account',
  emailRequired: 'Please enter your Email!',
  emailInvalid: 'Please enter a valid Email!',
  passwordRequired: 'Please enter your Password!',
  wrongCredentials: 'incorrect Email or Password!',
  success: 'Logged in Successfully',
  logoutSuccess: 'Logged out Successfully',

  noAccount: "Don't have an account?",
  forgotPassword: 'Forgot Password?',
  signingIn: 'Signing in',
  /** Why a guard sent the visitor here (?redirect=). */
  toBook: 'Sign in to book your tickets.',
  toSeeMessage: 'Sign in to see the confirmation of your message.',
  toContinue: 'Sign in to continue.',
} as const;
