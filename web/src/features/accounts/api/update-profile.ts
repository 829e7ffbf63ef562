import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Me, UpdateProfileBody } from '../../../../../contracts/accounts';
import { api } from '../../../lib/api-client';
import { meQueryKey } from './get-me';

/** Saves the names, the picture and, when typed, a new password (which signs out the user's other devices). */
export function updateProfile(body: UpdateProfileBody): Promise<Me> {
  return api.patch<Me>('/api/me', { ...body });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (me) => queryClient.setQueryData(meQueryKey, me),
  });
}
