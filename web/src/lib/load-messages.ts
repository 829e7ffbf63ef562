import type { Bundle } from '../../../contracts/i18n/bundles';
import { currentI18n } from './i18n';

/** One promise per bundle, kept: React's use() must see the same one on every render. */
const loads = new Map<Bundle, Promise<void>>();

/** A promise React's use() reads as already fulfilled (its status is set, as React records it), without waiting. */
function fulfilled(): Promise<void> {
  return Object.assign(Promise.resolve(), { status: 'fulfilled', value: undefined });
}

/**
 * A bundle of messages the page was not sent (the admin area's: GET /api/messages/:lang/:bundle), fetched once;
 * resolves when its texts are there. Part of the admin area's chunks: no public page needs it. A failure is
 * forgotten, so that the next page of the area asks again.
 */
export function loadMessages(bundle: Bundle): Promise<void> {
  let load = loads.get(bundle);
  if (load) return load;
  // The page's texts, which its I18n reads (lib/i18n.tsx). Every page has the site's; the admin area's are there
  // once its namespace 'admin' is (contracts/i18n/bundles.ts).
  const { lang } = currentI18n(); // which also makes sure the page's texts object is there
  const messages = globalThis.eventryMessages as Record<string, unknown>;
  if (bundle === 'site' || 'admin' in messages) {
    load = fulfilled();
  } else {
    load = fetch(`/api/messages/${lang}/${bundle}`, { credentials: 'same-origin' }).then(async (response) => {
      if (!response.ok) throw new Error(`Messages ${bundle} not loaded (${response.status})`);
      Object.assign(messages, (await response.json()) as Record<string, unknown>);
    });
    load.catch(() => loads.delete(bundle));
  }
  loads.set(bundle, load);
  return load;
}
