import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SignUpForm } from '../../../../../contracts/accounts';
import { api } from '../../../lib/api-client';
import { meQueryKey } from './get-me';

/** Creates the account (role user), signs it in and sends the verification email. */
export function signUp(values: SignUpForm): Promise<unknown> {
  return api.post('/api/auth/sign-up/email', {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    password: values.password,
  });
}

export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signUp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meQueryKey }),
  });
}
