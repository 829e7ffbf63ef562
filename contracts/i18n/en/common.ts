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
  /** The twelve months as dates show them, January first, separated by spaces ('Dec 5, 2026'). */
  months: 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec',
  /** The seven weekdays, Sunday first, separated by spaces. */
  weekdays: 'Sunday Monday Tuesday Wednesday Thursday Friday Saturday',
} as const;
