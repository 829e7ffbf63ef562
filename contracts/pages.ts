/**
 * The route manifest: every page of the web app. React Router's table is built from it (vite.config.ts writes
 * the `virtual:page-routes` module that web/src/app/router.tsx reads), and the server reads it to answer a page
 * load (server/web-app/): which chunks to list, which status to answer, whom to send on, which title to write.
 * Any other address is the web app's 404 page.
 */

/**
 * Whom a page's guard sends on (web/src/app/guards.tsx; the server applies the first two before it sends any
 * HTML, server/web-app/session-redirect.ts). The API enforces the same rules: the guards only steer the browser.
 */
export type PageGuard =
  /** The public pages: a signed-in admin goes to /admin. */
  | 'not-for-admins'
  /** Sign-in and its like: a signed-in user goes to / (an admin to /admin), or back where sign-in was asked for. */
  | 'signed-out-only'
  /** A visitor goes to /login, and comes back after signing in. */
  | 'require-auth'
  /** A visitor goes to /login, a user to /. */
  | 'require-admin'
  /** The door (check-in): admins and door staff; a visitor goes to /login, anyone else to /. */
  | 'require-door'
  /** Everyone sees the page. */
  | 'none';

export interface PageRoute {
  /** React Router's pattern (`:name` is one segment); its fixed parts match in any case, with or without a trailing slash. */
  path: string;
  guard: PageGuard;
  /** require-auth: nothing at all, not even a spinner, while the session is unknown (the spec's 'blank while loading'). */
  blankWhilePending?: true;
  /**
   * The page's lazy module, from web/: the key of its chunk in Vite's manifest (dist/web/.vite/manifest.json). It
   * exports one component named after the file (event-details.tsx: EventDetailsRoute), and is a chunk of its own.
   */
  module: `src/features/${string}/routes/${string}.tsx`;
  /**
   * The key of the page's title where it is fixed ('' is the site's own title); a page named by its content sets
   * its own. Keys, so that the server writes the title in the page's language (contracts/i18n).
   */
  title?: string;
  /** The key of its meta description where it is fixed; otherwise the site's. */
  description?: string;
}

const pages = {
  home: {
    path: '/',
    guard: 'not-for-admins',
    module: 'src/features/catalogue/routes/home.tsx',
    title: '',
    description: 'catalogue.homeDescription',
  },
  eventsPage: {
    path: '/events-page/:category',
    guard: 'not-for-admins',
    module: 'src/features/catalogue/routes/events-page.tsx',
  },
  eventDetails: {
    path: '/event-details/:id',
    guard: 'not-for-admins',
    module: 'src/features/catalogue/routes/event-details.tsx',
  },
  getTicket: {
    path: '/event-details/:id/get-ticket',
    guard: 'require-auth',
    module: 'src/features/bookings/routes/get-ticket.tsx',
  },
  payment: {
    path: '/payment',
    guard: 'require-auth',
    module: 'src/features/bookings/routes/payment.tsx',
  },
  paymentSuccess: {
    path: '/payment-success',
    guard: 'require-auth',
    module: 'src/features/bookings/routes/payment-success.tsx',
  },
  paymentFailed: {
    path: '/payment-failed',
    guard: 'require-auth',
    module: 'src/features/bookings/routes/payment-failed.tsx',
    title: 'payment.failureTitle',
  },
  successEmail: {
    path: '/success-email',
    guard: 'require-auth',
    module: 'src/features/contact/routes/success-email.tsx',
    title: 'contact.successTitle',
  },
  contact: {
    path: '/contact',
    guard: 'not-for-admins',
    module: 'src/features/contact/routes/contact.tsx',
    title: 'contact.heading',
    description: 'contact.description',
  },
  login: {
    path: '/login',
    guard: 'signed-out-only',
    module: 'src/features/accounts/routes/login.tsx',
    title: 'login.heading',
  },
  signup: {
    path: '/signup',
    guard: 'signed-out-only',
    module: 'src/features/accounts/routes/signup.tsx',
    title: 'signup.heading',
  },
  forgotPass: {
    path: '/forgot-pass',
    guard: 'signed-out-only',
    module: 'src/features/accounts/routes/forgot-pass.tsx',
    title: 'resetPassword.heading',
  },
  resetPassword: {
    path: '/reset-password',
    guard: 'none',
    module: 'src/features/accounts/routes/reset-password.tsx',
    title: 'accounts.newPasswordHeading',
  },
  profile: {
    path: '/profile',
    guard: 'require-auth',
    module: 'src/features/bookings/routes/profile.tsx',
    title: 'bookings.yourBookings',
  },
  editProfile: {
    path: '/edit-profile',
    guard: 'require-auth',
    blankWhilePending: true,
    module: 'src/features/accounts/routes/edit-profile.tsx',
    title: 'profile.heading',
  },
  admin: {
    path: '/admin',
    guard: 'require-admin',
    module: 'src/features/admin/routes/admin-events.tsx',
    title: 'admin.listTitle',
  },
  adminEventForm: {
    path: '/admin/event/:id',
    guard: 'require-admin',
    module: 'src/features/admin/routes/admin-event-form.tsx',
  },
  adminAttendees: {
    path: '/admin/event/:id/attendees',
    guard: 'require-admin',
    module: 'src/features/admin/routes/admin-attendees.tsx',
    // Named by its content: 'Attendees · {the event's title}'.
  },
  adminDashboard: {
    path: '/admin/dashboard',
    guard: 'require-admin',
    module: 'src/features/admin/routes/admin-dashboard.tsx',
    title: 'dashboard.title',
  },
  adminEventDashboard: {
    path: '/admin/event/:id/dashboard',
    guard: 'require-admin',
    module: 'src/features/admin/routes/admin-dashboard.tsx',
    // Named by its content: 'Dashboard · {the event's title}'.
  },
  adminMailbox: {
    path: '/admin/mailbox',
    guard: 'require-admin',
    module: 'src/features/admin/routes/admin-mailbox.tsx',
    title: 'admin.mailboxTitle',
  },
  checkInEvents: {
    path: '/admin/check-in',
    guard: 'require-door',
    module: 'src/features/door/routes/check-in.tsx',
    title: 'door.chooseEventTitle',
  },
  eventCheckIn: {
    path: '/admin/event/:id/check-in',
    guard: 'require-door',
    module: 'src/features/door/routes/check-in.tsx',
  },
  doorStaff: {
    path: '/admin/event/:id/door-staff',
    guard: 'require-admin',
    module: 'src/features/door/routes/door-staff.tsx',
    title: 'doorStaff.doorStaffTitle',
  },
} as const satisfies Record<string, PageRoute>;

export type PageId = keyof typeof pages;

export const PAGES: Readonly<Record<PageId, PageRoute>> = pages;

export { ADMIN_AREA, ADMIN_ROUTES_MODULE, isAdminAreaPath } from './admin-area';
