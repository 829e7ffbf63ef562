import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MailboxResponse } from '../../../../../contracts/contact';
import { api } from '../../../lib/api-client';

export function getMailbox(): Promise<MailboxResponse> {
  return api.get<MailboxResponse>('/api/admin/mailbox');
}

export function getMailboxQueryOptions() {
  return queryOptions({ queryKey: ['admin', 'mailbox'], queryFn: getMailbox, staleTime: 0 });
}

/** The latest emails; refreshed every few seconds so a just-requested link shows up on its own. */
export function useMailbox() {
  return useQuery({ ...getMailboxQueryOptions(), refetchInterval: 5_000 });
}

/**
 * How emails leave ('smtp' or 'log', kept in the mailbox): fixed while the server runs, so asked once per
 * visit. Shares the mailbox's cache entry, so opening the mailbox afterwards starts with what is known.
 */
export function useMailDelivery() {
  return useQuery({
    ...getMailboxQueryOptions(),
    staleTime: Number.POSITIVE_INFINITY,
    select: (mailbox) => mailbox.delivery,
  });
}
