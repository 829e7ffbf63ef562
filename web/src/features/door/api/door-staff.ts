import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DoorStaffList } from '../../../../../contracts/door-staff';
import { api } from '../../../lib/api-client';

const base = (eventId: string) => `/api/admin/events/${encodeURIComponent(eventId)}/door-staff`;
const doorStaffKey = (eventId: string) => ['admin', 'door-staff', eventId] as const;

export function getDoorStaff(eventId: string): Promise<DoorStaffList> {
  return api.get<DoorStaffList>(base(eventId));
}

export function useDoorStaff(eventId: string) {
  return useQuery({ queryKey: doorStaffKey(eventId), queryFn: () => getDoorStaff(eventId), staleTime: 0 });
}

export function useGrantDoorStaff(eventId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api.post<DoorStaffList>(base(eventId), { email }),
    onSuccess: (list) => queryClient.setQueryData(doorStaffKey(eventId), list),
  });
}

export function useRevokeDoorStaff(eventId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.delete<void>(`${base(eventId)}/${encodeURIComponent(userId)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: doorStaffKey(eventId) }),
  });
}
