/** Only same-site relative paths may be used as a redirect target (no //host, no /\host). Zod-free on purpose. */
export function safeRedirectPath(value: string | null | undefined, fallback = '/'): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  for (const char of value) if (char.charCodeAt(0) < 0x20) return fallback;
  return value;
}

/**
 * Where a signed-in user who opens a signed-out page (login, signup, forgot-pass) is sent (users to /, admins to
 * their own pages at /admin; server/web-html.test.ts: 'sends a signed-in user or admin from login, signup and
 * forgot-pass on'), or, right after signing in, back to the same-site page that sent them to /login
 * (`?redirect=`) if it is one of their pages.
 */
export function signedInDestination(role: string, redirect: string | null | undefined): string {
  const target = safeRedirectPath(redirect, '');
  const isAdminPath = target === '/admin' || target.startsWith('/admin/');
  if (role === 'admin') return isAdminPath ? target : '/admin';
  return target && !isAdminPath ? target : '/';
}
