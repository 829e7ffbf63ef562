import type { QueryClient } from '@tanstack/react-query';
import { meQueryKey } from '../features/accounts/api/get-me';
import { onSessionEnded } from '../lib/api-client';
import { chunk } from '../lib/chunk';
import { mountToasterNow } from './providers';

/**
 * A call that needs a session was refused (401 UNAUTHENTICATED) while the app still shows a signed-in
 * user: the session has ended. The user is forgotten, so the header follows and the page's guard sends
 * them to /login?redirect=<this page> (guards.tsx), which brings them back once signed in again; a toast
 * says why. A visitor's 401 (no user known) is no news and changes nothing.
 */
export function forgetEndedSessions(queryClient: QueryClient): void {
  onSessionEnded(() => {
    if (!queryClient.getQueryData(meQueryKey)) return;
    queryClient.setQueryData(meQueryKey, null);
    mountToasterNow();
    void chunk(() => import('./app-toasts')).then(({ toastSessionEnded }) => toastSessionEnded());
  });
}
