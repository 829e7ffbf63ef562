/**
 * Moved to contracts/i18n (namespace door, an admin-area bundle). Left only for the account menu's link of door
 * staff (web/src/features/accounts/components/user-menu.tsx, a site page's chunk): delete this file once that
 * link takes its text from a site namespace.
 */
export const doorMessages = {
  checkIn: 'Check-in',
} as const;
