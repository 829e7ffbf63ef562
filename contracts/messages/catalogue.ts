export const catalogueMessages = {
  /** The home page's meta description. */
  homeDescription:
    'Discover concerts, sports, tech meetups, art and food events near you, and book your tickets in seconds.',
  noSearchMatch: 'There is no events with this title',
  homeEmpty: 'No Events Found',
  listEmpty: 'No Events',
  seeMore: 'See More',
  moreDetails: 'More Details',
  bookATicket: 'Book a Ticket',
  all: 'All',
  previous: 'Previous',
  next: 'Next',
  scrollToTop: 'Scroll to top',
  searchEvents: 'Search events',
  home: 'Home',
  hostingAnEvent: 'Hosting an Event?',
  eventHosting: 'Event Hosting',
  login: 'Login',
  privacyPolicy: 'Privacy policy',
  termsOfService: 'Terms of service',
  openMenu: 'Open menu',
  closeMenu: 'Close menu',
} as const;
