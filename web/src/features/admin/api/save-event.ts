import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EventFormValues } from '../../../../../contracts/admin';
import type { EventDto } from '../../../../../contracts/catalogue';
import { api } from '../../../lib/api-client';

/** The form's values go as typed: the server parses them with the same schema (price in EGP). */
export function createEvent(values: EventFormValues): Promise<EventDto> {
  return api.post<EventDto>('/api/admin/events', { ...values });
}

export function updateEvent(id: string, values: EventFormValues): Promise<EventDto> {
  return api.put<EventDto>(`/api/admin/events/${encodeURIComponent(id)}`, { ...values });
}

/** Create (id undefined) or edit an event; every admin query is refreshed afterwards. */
export function useSaveEvent(id: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: EventFormValues) => (id ? updateEvent(id, values) : createEvent(values)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['admin'] });
    },
  });
}
