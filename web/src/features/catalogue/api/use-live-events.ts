import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { EventDto, EventsPage } from '../../../../../contracts/catalogue';
import {
  LIVE_CHANGE_EVENT,
  LIVE_READY_EVENT,
  LIVE_RESYNC_EVENT,
  type LiveChange,
  parseLiveChange,
} from '../../../../../contracts/live';
import { eventDetailQueryKey } from './get-event';
import { eventListsQueryKey, eventsQueryKey } from './get-events';

/** Several changes in a burst (a busy booking minute) cause one refetch, not one each. */
const REFETCH_DEBOUNCE_MS = 300;
/**
 * ...but a burst that never pauses (an on-sale: a change every few milliseconds) still refetches this often,
 * so an edit or a new event shows within seconds meanwhile. The available counts need no refetch.
 */
const REFETCH_MAX_WAIT_MS = 5_000;

/**
 * The stream opens once the page has loaded and its first content shows (the home skeleton lasts 1 s):
 * a long-lived request started earlier competes with the page's own requests on a slow network. Nothing
 * is missed meanwhile, because the stream's 'ready' triggers a refetch.
 */
const OPEN_AFTER_MS = 1_500;

function whenPageSettled(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    timer = setTimeout(callback, Math.max(0, OPEN_AFTER_MS - performance.now()));
  };
  if (document.readyState === 'complete') {
    schedule();
    return () => clearTimeout(timer);
  }
  window.addEventListener('load', schedule, { once: true });
  return () => {
    window.removeEventListener('load', schedule);
    clearTimeout(timer);
  };
}

function withAvailability(event: EventDto, change: LiveChange): EventDto {
  if (event.id !== change.id || change.version < event.version) return event;
  return { ...event, ticketsAvailable: change.ticketsAvailable };
}

/** One EventSource per tab, shared by every screen that shows events. */
class LiveEvents {
  private source: EventSource | null = null;
  private cancelOpen: (() => void) | null = null;
  private users = 0;
  private refetchTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the first change the pending refetch waits for came. */
  private burstStart = 0;
  private closeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly queryClient: QueryClient) {}

  retain() {
    this.users += 1;
    clearTimeout(this.closeTimer);
    if (this.source || this.cancelOpen || typeof EventSource === 'undefined') return;
    this.cancelOpen = whenPageSettled(() => {
      this.cancelOpen = null;
      if (this.users > 0) this.open();
    });
  }

  release() {
    this.users -= 1;
    if (this.users > 0) return;
    // Moving from one screen to the next releases then retains: keep the connection across that.
    clearTimeout(this.closeTimer);
    this.closeTimer = setTimeout(() => {
      if (this.users > 0) return;
      this.cancelOpen?.();
      this.cancelOpen = null;
      this.source?.close();
      this.source = null;
      clearTimeout(this.refetchTimer);
      this.refetchTimer = undefined;
    }, 2_000);
  }

  private open() {
    const source = new EventSource('/api/events/live');
    this.source = source;
    source.addEventListener(LIVE_CHANGE_EVENT, (message) => this.onChange(message as MessageEvent<string>));
    source.addEventListener(LIVE_RESYNC_EVENT, () => this.scheduleRefetch());
    // 'ready' comes once the server relays changes to us, on the first connection and after every
    // reconnect: whatever changed before it (while the page loaded, or while offline) was missed.
    source.addEventListener(LIVE_READY_EVENT, () => this.scheduleRefetch());
  }

  private onChange(message: MessageEvent<string>) {
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    const change = parseLiveChange(data);
    if (!change) return;
    // The available count is in the message itself: show it at once.
    this.queryClient.setQueriesData<EventsPage>({ queryKey: eventListsQueryKey }, (page) =>
      page ? { ...page, items: page.items.map((event) => withAvailability(event, change)) } : page,
    );
    this.queryClient.setQueryData<EventDto>(eventDetailQueryKey(change.id), (event) =>
      event ? withAvailability(event, change) : event,
    );
    // A deleted event's page ends at once (its refetch answers 404), even while a busy on-sale elsewhere keeps
    // the debounced refetch below from ever running.
    if (change.isDeleted || change.op === 'delete') {
      void this.queryClient.invalidateQueries({ queryKey: eventDetailQueryKey(change.id) });
    }
    // Anything else (a new event, a changed price, a deletion in a list) comes from a refetch.
    this.scheduleRefetch();
  }

  private scheduleRefetch() {
    const now = Date.now();
    if (this.refetchTimer === undefined) this.burstStart = now;
    clearTimeout(this.refetchTimer);
    const wait = Math.min(REFETCH_DEBOUNCE_MS, Math.max(0, this.burstStart + REFETCH_MAX_WAIT_MS - now));
    this.refetchTimer = setTimeout(() => {
      this.refetchTimer = undefined;
      void this.queryClient.invalidateQueries({ queryKey: eventsQueryKey });
    }, wait);
  }
}

const hubs = new WeakMap<QueryClient, LiveEvents>();

/** Keeps home, list and detail up to date while mounted: changes made anywhere show without a reload. */
export function useLiveEvents() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let hub = hubs.get(queryClient);
    if (!hub) {
      hub = new LiveEvents(queryClient);
      hubs.set(queryClient, hub);
    }
    hub.retain();
    return () => hub.release();
  }, [queryClient]);
}
