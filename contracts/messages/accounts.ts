/** Accounts texts the spec does not give (its own are in login, signup, profile and reset-password). */
export const accountsMessages = {
  emailVerified: 'Your email is verified.',
  verificationLinkInvalid: 'This verification link is invalid or has expired.',
  sessionEnded: 'Your session has ended. Sign in again.',
} as const;
