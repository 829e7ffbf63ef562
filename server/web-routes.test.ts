import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pageAt, pageModules } from './web-html';

/**
 * The server keeps its own list of the web app's pages (server/web-html.ts ROUTES: which lazy module to
 * preload, which status to answer, who is sent on). It must say what React Router's table says
 * (web/src/app/router.tsx): a page added, moved or guarded differently there must be changed here too.
 */
const routerFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '../web/src/app/router.tsx');
const GUARDS: Record<string, 'public' | 'signed-out' | undefined> = {
  NotForAdmins: 'public',
  SignedOutOnly: 'signed-out',
};

function routerPages() {
  const source = readFileSync(routerFile, 'utf8');
  const pages: Array<{ path: string; guard: string | undefined }> = [];
  for (const match of source.matchAll(/<Route\s+path="([^"]+)"\s+element=\{\s*(?:guarded\((\w+),)?/g)) {
    const [, routePath = '', guard] = match;
    if (routePath === '*' || routePath === '/404') continue;
    pages.push({ path: routePath, guard });
  }
  return pages;
}

describe("the server's list of pages", () => {
  const pages = routerPages();

  it("reads React Router's table", () => {
    expect(pages.length).toBeGreaterThanOrEqual(15);
    expect(pages).toContainEqual({ path: '/event-details/:id/get-ticket', guard: 'RequireAuth' });
  });

  it('knows every page of the web app, with the same guard', () => {
    const found = pages.map(({ path: routePath, guard }) => {
      const sample = routePath.replace(/:\w+/g, '3f9c1c52-3f1e-4d5e-9a7b-2b2f5c4d1e00');
      return { path: routePath, guard: GUARDS[guard ?? ''], server: pageAt(sample) };
    });
    for (const { path: routePath, guard, server } of found) {
      expect(server, `${routePath} is missing from server/web-html.ts ROUTES`).toBeDefined();
      expect(server?.guard, `${routePath}: the server's guard`).toBe(guard);
    }
    // One server entry per page, and none left over from a page the web app no longer has.
    expect(found.map(({ server }) => server?.module).sort()).toEqual(pageModules().sort());
  });

  it('shows its 404 page for the addresses React Router sends there', () => {
    for (const address of ['/404', '/no/such/page', '/admin/event', '/event-details', '//contact']) {
      expect(pageAt(address), address).toBeUndefined();
    }
  });
});
