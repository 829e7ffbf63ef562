import type { QueryClient } from '@tanstack/react-query';
import type { Category, EventDto, EventsPage } from '../../../contracts/catalogue';
import { meQueryKey } from '../features/accounts/api/get-me';
import { getCategoriesQueryOptions } from '../features/catalogue/api/get-categories';
import { getEventQueryOptions } from '../features/catalogue/api/get-event';
import { type EventsParams, getEventsQueryOptions } from '../features/catalogue/api/get-events';

/** The id of the JSON data block the server puts into index.html (server/web-app/web-html.ts). */
export const INITIAL_DATA_ELEMENT_ID = 'initial-data';

/** What the server embeds: the API answers the first page would fetch at once, so it does not wait for them. */
export interface InitialData {
  events?: { params: Required<EventsParams>; data: EventsPage };
  event?: { id: string; data: EventDto };
  categories?: Category[];
  /** null when the request carried no session cookie: a visitor, known without asking /api/me. */
  me?: null;
}

/** Puts the answers into a query cache, as if they had just been fetched. */
export function seedQueries(queryClient: QueryClient, seed: InitialData): void {
  if (seed.events) queryClient.setQueryData(getEventsQueryOptions(seed.events.params).queryKey, seed.events.data);
  if (seed.event) queryClient.setQueryData(getEventQueryOptions(seed.event.id).queryKey, seed.event.data);
  if (seed.categories) queryClient.setQueryData(getCategoriesQueryOptions().queryKey, seed.categories);
  if (seed.me === null) queryClient.setQueryData(meQueryKey, null);
}

/** Seeds the browser's query cache with the answers embedded in the page, then drops the element. */
export function seedInitialData(queryClient: QueryClient): void {
  const element = document.getElementById(INITIAL_DATA_ELEMENT_ID);
  if (!element?.textContent) return;
  element.remove();
  let seed: InitialData;
  try {
    seed = JSON.parse(element.textContent) as InitialData;
  } catch {
    return;
  }
  seedQueries(queryClient, seed);
}
