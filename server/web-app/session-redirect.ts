import type { FastifyRequest } from 'fastify';
import { signedInDestination } from '../../contracts/redirect';
import { matchPage, splitUrl } from './page-match';

/** better-auth's session cookie (server/plugins/auth.ts: prefix 'eventry', __Secure- over https). */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?eventry\.session_token=/;

/** Whether a request carries a session: without one the visitor is signed out, and no session is looked up. */
export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  return SESSION_COOKIE.test(cookieHeader ?? '');
}

/** Where an emailed verification link lands (web/src/app/layout/root-layout.tsx shows how it went). */
const VERIFICATION_LANDING = /[?&](verified|error)=/;

/**
 * Where a page load is sent before any of it is drawn, as the page's guard (contracts/pages.ts) would send it: a
 * signed-in admin from a public page ('not-for-admins') to /admin; a signed-in user from sign-in, sign-up or
 * forgot-pass ('signed-out-only') to / or back where sign-in was asked for, an admin to /admin. The browser's
 * guards do it only once the app has loaded and /api/me has answered, so the page (or a placeholder) showed
 * first. Only requests with a session cookie are looked up: a signed-out visitor costs nothing more. The
 * verification landing (/?verified=1) is left to the browser, which says how the link went before the guard moves
 * on. The guards that send visitors to /login are the browser's alone.
 */
export async function sessionRedirect(request: FastifyRequest): Promise<string | undefined> {
  if (!hasSessionCookie(request.headers.cookie)) return undefined;
  const { pathname, search } = splitUrl(request.url);
  const match = matchPage(pathname);
  const guard = match?.page.guard;
  if (guard !== 'not-for-admins' && guard !== 'signed-out-only') return undefined;
  if (match?.id === 'home' && VERIFICATION_LANDING.test(search)) return undefined;
  let user: Awaited<ReturnType<FastifyRequest['currentUser']>>;
  try {
    user = await request.currentUser();
  } catch (error) {
    // The database is unreachable: the page itself still works, and the browser's guards still apply.
    request.log.warn({ err: error }, 'session not read for the redirect');
    return undefined;
  }
  if (!user) return undefined;
  if (guard === 'signed-out-only') return signedInDestination(user.role, new URLSearchParams(search).get('redirect'));
  return user.role === 'admin' ? '/admin' : undefined;
}
