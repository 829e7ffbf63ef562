/** Asking for a reset link (/forgot-pass): the spec's texts, then ours. */
export const resetPassword = {
  heading: 'Reset Password',
  sent: "A password reset link has been sent to your email if it's registered!",

  intro: 'Enter the email of your account and we will send you a reset link.',
  submit: 'Reset Password',
  sending: 'Sending',
  backToSignIn: 'Back to Sign In',
} as const;
