import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginForm } from '../../../../../contracts/accounts';
import { api } from '../../../lib/api-client';
import { meQueryKey } from './get-me';

/** Signs in with email and password; the session cookie is set by the server. */
export function signIn(values: LoginForm): Promise<unknown> {
  return api.post('/api/auth/sign-in/email', { email: values.email.trim(), password: values.password });
}

/** After success the ['me'] query is fresh, so guards and the header already show the signed-in user. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
  });
}
