import { test as base } from '@playwright/test';

export { expect, type Page } from '@playwright/test';

/**
 * Public pages arrive rendered by the server and React hydrates them after the first paint. A click or
 * keystroke in that gap reaches plain HTML, so journeys wait for the app to take over after each page load
 * (except `waitUntil: 'commit'`: the journey wants the page before then).
 */
export const test = base.extend({
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
