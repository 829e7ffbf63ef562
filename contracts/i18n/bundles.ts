import type { Namespace } from './types';

/**
 * Which namespaces reach the browser, and when. The site's are written into every page's HTML (in the page's
 * language only); the admin area's are fetched with the admin area's chunk (/api/messages/:lang/admin); the
 * server's (emails, the PDF) never leave it. messages.test.ts checks that each namespace is in exactly one list.
 */
export const SITE_NAMESPACES = [
  'common',
  'catalogue',
  'payment',
  'bookings',
  'tickets',
  'waitlist',
  'login',
  'signup',
  'resetPassword',
  'profile',
  'accounts',
  'contact',
  'problems',
] as const satisfies readonly Namespace[];
export const ADMIN_NAMESPACES = [
  'eventForm',
  'admin',
  'attendees',
  'dashboard',
  'door',
  'doorStaff',
] as const satisfies readonly Namespace[];
export const SERVER_NAMESPACES = ['emails'] as const satisfies readonly Namespace[];

export const BUNDLES = { site: SITE_NAMESPACES, admin: ADMIN_NAMESPACES } as const;
export type Bundle = keyof typeof BUNDLES;

export function isBundle(value: unknown): value is Bundle {
  return value === 'site' || value === 'admin';
}
