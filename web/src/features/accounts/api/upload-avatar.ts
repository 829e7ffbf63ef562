import { useMutation } from '@tanstack/react-query';
import type { UploadedAvatar } from '../../../../../contracts/accounts';
import { api } from '../../../lib/api-client';

/** Uploads a new profile picture (re-encoded by the server); it becomes the picture when the profile is saved. */
export function uploadAvatar(file: File): Promise<UploadedAvatar> {
  const form = new FormData();
  form.append('file', file);
  return api.post<UploadedAvatar>('/api/me/avatar', form);
}

export function useUploadAvatar() {
  return useMutation({ mutationFn: uploadAvatar });
}
