import { test as base } from '@playwright/test';
import { createOwnEvent } from './fixtures';

export { expect, type Page } from '@playwright/test';

type OwnEvent = Awaited<ReturnType<typeof createOwnEvent>>;

/**
 * The journeys' `test`:
 * - `page`: public pages arrive rendered by the server and React hydrates them after the first paint. A click or
 *   keystroke in that gap reaches plain HTML, so journeys wait for the app to take over after each page load
 *   (except `waitUntil: 'commit'`: the journey wants the page before then).
 * - `ownEvent(title, options)`: an event of the test's own, made by the admin, deleted with its admin context when
 *   the test ends, passed or not (other journeys read the first events of the lists).
 */
export const test = base.extend<{
  ownEvent: (title: string, options: Parameters<typeof createOwnEvent>[3]) => Promise<OwnEvent>;
}>({
  ownEvent: async ({ browser, baseURL }, use) => {
    const made: OwnEvent[] = [];
    await use(async (title, options) => {
      const event = await createOwnEvent(browser, baseURL, title, options);
      made.push(event);
      return event;
    });
    for (const event of made) await event.close();
  },
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (options?.waitUntil !== 'commit' && response?.headers()['content-type']?.includes('text/html')) {
        await page.waitForSelector('html[data-hydrated]', { state: 'attached', timeout: 20_000 });
      }
      return response;
    };
    await use(page);
  },
});
