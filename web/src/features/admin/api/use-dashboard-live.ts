import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { LIVE_SALES_EVENT } from '../../../../../contracts/dashboard-labels';
import { isUuid } from '../../../../../contracts/ids';
import { LIVE_CHANGE_EVENT, LIVE_READY_EVENT, LIVE_RESYNC_EVENT, parseLiveChange } from '../../../../../contracts/live';
import { dashboardKey } from './get-dashboard';

/** A burst of sales (an on-sale pays hundreds a second) causes one refetch, not one each. */
const REFETCH_DEBOUNCE_MS = 400;
/** ...but a burst that never pauses still refetches this often, so the figures move while it lasts. */
const REFETCH_MAX_WAIT_MS = 3_000;

export type LiveState = 'connecting' | 'live' | 'reconnecting';

/** The event id of a `sales` message ({"eventId": "<uuid>"}), or undefined when it is not one. */
export function salesEventId(data: string): string | undefined {
  try {
    const value = JSON.parse(data) as { eventId?: unknown };
    return typeof value?.eventId === 'string' && isUuid(value.eventId) ? value.eventId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the dashboard's figures live while it is open: the admins' stream (GET /api/admin/live) says when an
 * event's sales, refunds or check-ins moved (`sales`), when an event changed (`change`: its capacity, a deletion),
 * and when messages may have been missed (`ready` on every connection, `resync`); each asks the dashboard again.
 * `eventId` limits it to one event's messages. The stream closes when the page does.
 */
export function useDashboardLive(eventId: string | undefined): LiveState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let burstStart = 0;
    const refetch = () => {
      const now = Date.now();
      if (timer === undefined) burstStart = now;
      clearTimeout(timer);
      const wait = Math.min(REFETCH_DEBOUNCE_MS, Math.max(0, burstStart + REFETCH_MAX_WAIT_MS - now));
      timer = setTimeout(() => {
        timer = undefined;
        void queryClient.invalidateQueries({ queryKey: dashboardKey });
      }, wait);
    };
    const concerns = (id: string | undefined) => id !== undefined && (eventId === undefined || id === eventId);

    const source = new EventSource('/api/admin/live');
    source.addEventListener(LIVE_READY_EVENT, () => {
      setState('live');
      refetch();
    });
    source.addEventListener(LIVE_RESYNC_EVENT, refetch);
    source.addEventListener(LIVE_SALES_EVENT, (message) => {
      if (concerns(salesEventId((message as MessageEvent<string>).data))) refetch();
    });
    source.addEventListener(LIVE_CHANGE_EVENT, (message) => {
      let data: unknown;
      try {
        data = JSON.parse((message as MessageEvent<string>).data);
      } catch {
        return;
      }
      if (concerns(parseLiveChange(data)?.id)) refetch();
    });
    // The browser connects again by itself (the server's `retry`); `ready` says when it has.
    source.addEventListener('error', () => setState('reconnecting'));
    return () => {
      source.close();
      clearTimeout(timer);
    };
  }, [eventId, queryClient]);

  return state;
}
