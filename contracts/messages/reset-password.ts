export const resetPasswordMessages = {
  heading: 'Reset Password',
  sent: "A password reset link has been sent to your email if it's registered!",
} as const;
