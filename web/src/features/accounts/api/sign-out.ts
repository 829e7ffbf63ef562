import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../../lib/api-client';
import { chunk } from '../../../lib/chunk';
import { currentI18n } from '../../../lib/i18n';
import { meQueryKey } from './get-me';
import { setSigningOut } from './signing-out';

/** sonner is loaded on demand, not with the page. */
function showToast(kind: 'success' | 'error', text: string): void {
  void chunk(() => import('sonner')).then(({ toast }) => toast[kind](text));
}

export function signOut(): Promise<unknown> {
  return api.post('/api/auth/sign-out');
}

/** Signs out, goes to / and says so ('Logged out Successfully'). */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: signOut,
    onSuccess: async () => {
      setSigningOut(true);
      try {
        queryClient.setQueryData(meQueryKey, null);
        await navigate('/', { replace: true });
      } finally {
        // The router commits the new page in a transition, after navigate() resolves: until then the page
        // being left may render again and must not send the visitor to /login.
        setTimeout(() => setSigningOut(false), 1000);
      }
      // Nothing of the previous user stays in memory.
      queryClient.removeQueries({ type: 'inactive' });
      showToast('success', currentI18n().t('login.logoutSuccess'));
    },
    onError: () => {
      showToast('error', currentI18n().t('common.somethingWentWrong'));
    },
  });
}
