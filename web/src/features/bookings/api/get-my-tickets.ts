import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyTickets } from '../../../../../contracts/tickets';
import { api } from '../../../lib/api-client';

/** The signed-in user's tickets, one per seat of each paid booking, with their QR texts. */
export function getMyTickets(): Promise<MyTickets> {
  return api.get<MyTickets>('/api/me/tickets');
}

export function getMyTicketsQueryOptions() {
  return queryOptions({ queryKey: ['me', 'tickets'], queryFn: getMyTickets, staleTime: 0 });
}

export function useMyTickets() {
  return useQuery(getMyTicketsQueryOptions());
}
