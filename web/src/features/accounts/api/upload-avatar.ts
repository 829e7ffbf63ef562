import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Me } from '../../../../../contracts/accounts';
import { api } from '../../../lib/api-client';
import { meQueryKey } from './get-me';

/** Replaces the profile picture; the server re-encodes it and removes the previous one. */
export function uploadAvatar(file: File): Promise<Me> {
  const form = new FormData();
  form.append('file', file);
  return api.post<Me>('/api/me/avatar', form);
}

export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadAvatar,
    onSuccess: (me) => queryClient.setQueryData(meQueryKey, me),
  });
}
