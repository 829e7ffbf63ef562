import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { messages } from '../../../../../contracts/messages';
import { api } from '../../../lib/api-client';
import { meQueryKey } from './get-me';

let signingOut = false;

/** sonner is loaded on demand: this module is part of the first load (the guards read isSigningOut). */
function showToast(kind: 'success' | 'error', text: string): void {
  void import('sonner').then(({ toast }) => toast[kind](text));
}

/**
 * True while a sign-out is moving the visitor to /: the sign-in guards then wait instead of sending
 * the page being left to /login.
 */
export function isSigningOut(): boolean {
  return signingOut;
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
      signingOut = true;
      try {
        queryClient.setQueryData(meQueryKey, null);
        await navigate('/', { replace: true });
      } finally {
        // The router commits the new page in a transition, after navigate() resolves: until then the page
        // being left may render again and must not send the visitor to /login.
        setTimeout(() => {
          signingOut = false;
        }, 1000);
      }
      // Nothing of the previous user stays in memory.
      queryClient.removeQueries({ type: 'inactive' });
      showToast('success', messages.login.logoutSuccess);
    },
    onError: () => {
      showToast('error', messages.common.somethingWentWrong);
    },
  });
}
