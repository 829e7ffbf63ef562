import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Sends a new verification link to the signed-in user's address. */
export function sendVerificationEmail(email: string): Promise<unknown> {
  return api.post('/api/auth/send-verification-email', { email });
}

export function useSendVerificationEmail() {
  return useMutation({ mutationFn: sendVerificationEmail });
}
