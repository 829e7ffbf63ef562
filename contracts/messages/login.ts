export const loginMessages = {
  heading: 'Sign in to your account',
  emailRequired: 'Please enter your Email!',
  emailInvalid: 'Please enter a valid Email!',
  passwordRequired: 'Please enter your Password!',
  wrongCredentials: 'incorrect Email or Password!',
  success: 'Logged in Successfully',
  logoutSuccess: 'Logged out Successfully',
} as const;
