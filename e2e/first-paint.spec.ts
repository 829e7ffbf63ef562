import type { APIRequestContext } from '@playwright/test';
import { i18nOf } from '../contracts/i18n/all';
import { holdRequests } from './support/fixtures';
import { expect, test } from './support/test';

/**
 * A page's HTML carries only the rules its own elements can use (server/web-app/critical-css.ts); the whole
 * stylesheet is turned on when the app first changes the page (web/src/app/whole-stylesheet.ts). If a rule the
 * page needs were left out, the page would differ from itself once it is. So: the page with its scripts blocked (the whole stylesheet stays off),
 * every computed style of every element and pseudo-element; then the whole stylesheet on, the same again.
 */

/** The public pages the server draws with the catalogue's data: home, the list and the first event's page. */
async function publicPages(request: APIRequestContext): Promise<string[]> {
  const { items } = (await (await request.get('/api/events')).json()) as { items: Array<{ id: string }> };
  return ['/', '/events-page/all', `/event-details/${items[0]?.id}`];
}

/** In the page: the styles with its own rules, then with the whole stylesheet; the elements whose styles differ. */
async function compareWithWholeStylesheet(): Promise<{ elements: number; sheets: number; differences: string[] }> {
  /**
   * Every computed style of every element of the body and of its drawn ::before, ::after and ::placeholder, with every
   * animation at its end (the home page's cards show after a set delay, components/ui/reveal.tsx) or, if it
   * never ends (a skeleton's pulse), at its start.
   */
  const snapshot = () => {
    for (const animation of document.getAnimations()) {
      if (animation.effect?.getComputedTiming().endTime === Number.POSITIVE_INFINITY) {
        animation.pause();
        animation.currentTime = 0;
      } else animation.finish();
    }
    return Array.from(document.querySelectorAll('body, body *'), (element) => {
      const values = new Map<string, string>();
      for (const pseudo of [null, '::before', '::after', '::placeholder']) {
        const style = getComputedStyle(element, pseudo);
        // A pseudo-element that is not drawn: nothing of it to compare.
        if (pseudo === '::placeholder' ? !element.matches('input, textarea') : pseudo && style.content === 'none') {
          continue;
        }
        for (let i = 0; i < style.length; i++) {
          const name = style[i] as string;
          values.set(`${pseudo ?? ''}${name}`, style.getPropertyValue(name));
        }
      }
      return { element, values };
    });
  };
  // Both snapshots with the page's fonts loaded, and with every part of the page drawn once. A card below the
  // screen (`content-visibility: auto`, index.css .skip-offscreen) that has never been drawn measures its
  // placeholder's 424 px, one drawn since measures what it is: whether a frame came between the two snapshots then
  // decided the cards' heights (a run with two shards failed so, twice), which says nothing about the rules.
  await document.fonts.ready;
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  window.scrollTo(0, document.documentElement.scrollHeight);
  await frame();
  window.scrollTo(0, 0);
  await frame();
  const own = snapshot();
  const link = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]');
  if (!link?.disabled) throw new Error('no disabled stylesheet link');
  await new Promise((resolve, reject) => {
    link.addEventListener('load', resolve, { once: true });
    link.addEventListener('error', reject, { once: true });
    link.disabled = false;
  });
  await document.fonts.ready;
  const whole = snapshot();
  const differences: string[] = [];
  own.forEach(({ element, values }, i) => {
    const after = whole[i]?.values ?? new Map<string, string>();
    const changed = [...new Set([...values.keys(), ...after.keys()])].filter((k) => values.get(k) !== after.get(k));
    if (changed.length > 0) {
      const what = changed.slice(0, 4).map((k) => `${k}: ${values.get(k)} → ${after.get(k)}`);
      differences.push(`${element.outerHTML.slice(0, 120)} … ${what.join('; ')}`);
    }
  });
  return { elements: own.length, sheets: document.styleSheets.length, differences };
}

test('each server-drawn page paints with its own rules exactly as with the whole stylesheet', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const paths = [...(await publicPages(request)), '/login', '/signup', '/forgot-pass', '/contact'];
  for (const lang of ['en', 'ar']) {
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      await context.addCookies([{ name: 'lang', value: lang, url: baseURL as string }]);
      // No script: the whole stylesheet stays off until the test turns it on.
      await context.route(/\/assets\/[^?]+\.js$/, (route) => route.abort());
      const page = await context.newPage();
      for (const path of paths) {
        await page.goto(path);
        const { elements, sheets, differences } = await page.evaluate(compareWithWholeStylesheet);
        expect(elements, `${path} ${lang}`).toBeGreaterThan(20);
        expect(sheets, path).toBe(2);
        expect(differences, `${path} in ${lang} at ${width} px`).toEqual([]);
      }
      await context.close();
    }
  }
});

/**
 * In the page, from before its scripts run: the elements removed from #root (the app drawing a part of the page
 * again instead of adopting the server's), and whether the element focused before the app ran still has the focus.
 */
function watchTakeOver() {
  const removed: string[] = [];
  (window as unknown as { eventryRemoved: string[] }).eventryRemoved = removed;
  document.addEventListener('DOMContentLoaded', () => {
    const root = document.getElementById('root');
    if (!root) return;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.removedNodes)
          if (node instanceof Element) removed.push(`${node.outerHTML.slice(0, 100)} (in ${record.target.nodeName})`);
    }).observe(root, { childList: true, subtree: true });
  });
}

// Visitors: for a signed-in user the server draws the header's account corner as a placeholder (the page's HTML is
// the same for everyone), which the app replaces with the user's menu once it knows the session.
test('the app takes over each server-drawn page as it is: nothing is drawn again, and the focus stays where it was', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const paths = [...(await publicPages(request)), '/login', '/signup', '/contact'];
  for (const lang of ['en', 'ar']) {
    const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
    await context.addCookies([{ name: 'lang', value: lang, url: baseURL as string }]);
    await context.addInitScript(watchTakeOver);
    const page = await context.newPage();
    for (const path of paths) {
      // The app is held until the visitor has moved the focus into the page (its first visible link after the skip link).
      const release = await holdRequests(page, '**/assets/boot-*.js');
      await page.goto(path, { waitUntil: 'commit' });
      const focused = page.locator('#root a[href^="/"]:visible').first();
      await focused.focus();
      await expect(focused).toBeFocused();
      release();
      await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
      await page.unrouteAll();
      const removed = await page.evaluate(() => (window as unknown as { eventryRemoved: string[] }).eventryRemoved);
      expect(removed, `${path} in ${lang}`).toEqual([]);
      await expect(focused, `${path} in ${lang}`).toBeFocused();
    }
    await context.close();
  }
});

/** In the page, from before its scripts run: whether the whole stylesheet was on when the app had taken over. */
function watchWholeStylesheet() {
  const seen = { onWhenTakenOver: null as boolean | null };
  (window as unknown as { eventrySheet: typeof seen }).eventrySheet = seen;
  new MutationObserver((records, watch) => {
    if (!records.some((record) => record.attributeName === 'data-hydrated')) return;
    const link = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]');
    seen.onWhenTakenOver = !link?.disabled && link?.media !== 'not all';
    watch.disconnect();
  }).observe(document, { attributes: true, attributeFilter: ['data-hydrated'], subtree: true });
}

/** In the page: the classes of the elements under `selector` that a rule mentions only in a stylesheet that is off. */
function classesStyledOnlyWhenOff(selector: string): string[] {
  const mentioned = (on: boolean) => {
    const classes = new Set<string>();
    const walk = (rules: CSSRuleList) => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSStyleRule)
          for (const match of rule.selectorText.matchAll(/\.((?:\\.|[\w-])+)/g)) {
            classes.add((match[1] ?? '').replace(/\\(.)/g, '$1'));
          }
        if ('cssRules' in rule) walk((rule as CSSGroupingRule).cssRules);
      }
    };
    for (const sheet of Array.from(document.styleSheets)) {
      const off = sheet.disabled || sheet.media.mediaText === 'not all';
      if (off !== on) walk(sheet.cssRules);
    }
    return classes;
  };
  const on = mentioned(true);
  const offOnly = [...mentioned(false)].filter((name) => !on.has(name));
  const used = new Set(
    Array.from(document.querySelectorAll(`${selector}, ${selector} *`), (e) => [...e.classList]).flat(),
  );
  return offOnly.filter((name) => used.has(name));
}

test('the whole stylesheet stays off while a page is as the server drew it, and is on before the app draws more', async ({
  browser,
  baseURL,
}) => {
  for (const lang of ['en', 'ar'] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'lang', value: lang, url: baseURL as string }]);
    await context.addInitScript(watchWholeStylesheet);
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
    const seen = await page.evaluate(() => (window as unknown as { eventrySheet: unknown }).eventrySheet);
    expect(seen, lang).toEqual({ onWhenTakenOver: false });
    // The sign-in page, drawn by the app: its form's classes are not the home page's.
    await page
      .getByRole('link', { name: i18nOf(lang).t('catalogue.login') })
      .first()
      .click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.locator('form input').first()).toBeVisible();
    expect(await page.evaluate(classesStyledOnlyWhenOff, '#root'), lang).toEqual([]);
    await context.close();
  }
});

/**
 * In the page, once the app has taken over: when the app's entry script was asked for, and when the page's largest
 * paint (its last candidate) was shown, in ms from the navigation.
 */
async function entryAgainstLargestPaint(): Promise<{ largestPaint: number; entryAskedFor: number | undefined }> {
  const largestPaint = await new Promise<number>((resolve) => {
    new PerformanceObserver((list) => resolve(list.getEntries().at(-1)?.startTime ?? Number.NaN)).observe({
      type: 'largest-contentful-paint',
      buffered: true,
    });
  });
  const entry = performance
    .getEntriesByType('resource')
    .find((resource) => /\/assets\/index-[\w-]+\.js$/.test(new URL(resource.name).pathname));
  return { largestPaint, entryAskedFor: entry?.startTime };
}

// The app's script starts once the page it arrived with has been shown (server/web-app/entry-loader.ts): fetched
// before that paint, on a connection fast enough to bring the page's pictures before its first frame, it was on the
// path to the largest paint in Lighthouse's simulation (an LCP of 1.2–1.35 s instead of 0.75–0.93 in one load of
// five or so).
test("the app's script is asked for only after the page's largest paint has been shown", async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const paths = await publicPages(request);
  for (const lang of ['en', 'ar']) {
    for (const path of paths) {
      for (let load = 1; load <= 3; load++) {
        // A context each: a script the renderer already holds in memory gets no resource timing entry.
        const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
        await context.addCookies([{ name: 'lang', value: lang, url: baseURL as string }]);
        const page = await context.newPage();
        await page.goto(path);
        await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
        const { largestPaint, entryAskedFor } = await page.evaluate(entryAgainstLargestPaint);
        expect(largestPaint, `${path} in ${lang}, load ${load}`).toBeGreaterThan(0);
        expect(entryAskedFor, `${path} in ${lang}, load ${load}`).toBeGreaterThanOrEqual(largestPaint);
        await context.close();
      }
    }
  }
});
