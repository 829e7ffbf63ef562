/** Texts every page may show: the layout, the language switch, generic failures. */
export const common = {
  somethingWentWrong: 'Something went wrong, try again later',
  renderFailure: 'Something went wrong.',
  notFound: 'PAGE NOT FOUND',
  backToHome: 'Back to Home',
  dashboard: 'DashBoard',
  brandInitial: 'E',
  brand: 'Eventry',
  tryAgain: 'Try again',
  pageNotFoundTitle: 'Page not found',
  notifications: 'Notifications',
  closeNotification: 'Close notification',
  siteTitle: 'Eventry — discover and book events',
  siteDescription: 'Discover events near you and book tickets in seconds with Eventry.',
  noScript: 'Eventry needs JavaScript to run.',
  /** The switch names the other language in that language, so that a reader of it finds it. */
  switchLanguage: 'العربية',
  languageName: 'English',
} as const;
