import { useMutation } from '@tanstack/react-query';
import type { ContactForm, ContactResponse } from '../../../../../contracts/contact';
import { api } from '../../../lib/api-client';

/** Sends the contact form; the server checks it again with the same schema. */
export function sendContactMessage(values: ContactForm): Promise<ContactResponse> {
  return api.post<ContactResponse>('/api/contact', { ...values });
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
