import { useMutation } from '@tanstack/react-query';
import type { UploadResult } from '../../../../../contracts/admin';
import { api } from '../../../lib/api-client';

export function uploadEventImage(file: File): Promise<UploadResult> {
  const form = new FormData();
  form.append('file', file);
  return api.post<UploadResult>('/api/admin/uploads', form);
}

export function useUploadEventImage() {
  return useMutation({ mutationFn: uploadEventImage });
}
