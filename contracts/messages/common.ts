export const commonMessages = {
  somethingWentWrong: 'Something went wrong, try again later',
  renderFailure: 'Something went wrong.',
  notFound: 'PAGE NOT FOUND',
  backToHome: 'Back to Home',
  dashboard: 'DashBoard',
} as const;
