import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminEventsPage } from '../../../../../contracts/admin';
import { api } from '../../../lib/api-client';
import { adminEventsKey } from './get-admin-events';

export function deleteEvent(id: string): Promise<void> {
  return api.delete<void>(`/api/admin/events/${encodeURIComponent(id)}`);
}

/**
 * Soft-deletes an event, removing its row from the shown page at once (the admin sees the delete take effect
 * without waiting for the server) and putting it back
 * if the server refuses.
 */
export function useDeleteEvent(listKey: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteEvent(id),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: listKey });
      const previous = queryClient.getQueryData<AdminEventsPage>(listKey);
      if (previous) {
        queryClient.setQueryData<AdminEventsPage>(listKey, {
          ...previous,
          items: previous.items.filter((event) => event.id !== id),
          total: Math.max(0, previous.total - 1),
        });
      }
      return { previous };
    },
    onError: (_error, _id, context) => {
      if (context?.previous) queryClient.setQueryData(listKey, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminEventsKey }),
  });
}
