import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { meQueryKey } from './get-me';

/** Sets a new password with the token of an emailed reset link (it works once). */
export function resetPassword(input: { token: string; newPassword: string }): Promise<unknown> {
  return api.post('/api/auth/reset-password', input);
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    // A reset ends every session of the account, this browser's included.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
  });
}
