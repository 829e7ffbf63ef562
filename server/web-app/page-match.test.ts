import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { PAGES } from '../../contracts/pages';
import { matchPage, splitUrl } from './page-match';

/** The manifest's pages as web/src/app/router.tsx nests them: under the layout route, which has no path. */
const ROUTES: RouteObject[] = [{ children: Object.values(PAGES).map((page) => ({ path: page.path })) }];

/** The page and parameters React Router itself finds at `pathname`. */
function reactRouterPage(pathname: string) {
  const leaf = matchRoutes(ROUTES, pathname)?.at(-1);
  return leaf ? { path: leaf.route.path, params: { ...leaf.params } } : undefined;
}

function serverPage(pathname: string) {
  const match = matchPage(pathname);
  return match ? { path: match.page.path, params: match.params } : undefined;
}

const ID = '3f9c1c52-3f1e-4d5e-9a7b-2b2f5c4d1e00';

describe('matching an address to a page of the manifest', () => {
  it('finds the page React Router shows, with the same parameters, at every kind of address', () => {
    const samples = Object.values(PAGES).map((page) => page.path.replace(':category', 'music').replace(':id', ID));
    const addresses = [
      ...samples,
      ...samples.map((address) => address.toUpperCase()),
      ...samples.map((address) => `${address}/`),
      ...samples.map((address) => `${address}//`),
      // Parameters are decoded, an encoded slash included; fixed parts may be encoded too.
      '/events-page/Food%20%26%20Drink',
      '/events-page/a%2Fb',
      '/event-details/%E2%9C%93',
      '/%63ontact',
      '/events-page/%E0%A4%A',
      // Not pages: a path that starts with two slashes, a part missing or added, the 404 page itself.
      '//contact',
      '//',
      '/admin/event',
      '/event-details',
      '/events-page/',
      `/event-details/${ID}/get-ticket/more`,
      '/login/again',
      '/404',
      '/no/such/page',
    ];
    const ours = Object.fromEntries(addresses.map((address) => [address, serverPage(address)]));
    // React Router warns of the address it cannot decode (and reads it as it is).
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const theirs = Object.fromEntries(addresses.map((address) => [address, reactRouterPage(address)]));
    warn.mockRestore();
    expect(ours).toEqual(theirs);
    // Each page is found at its own address (the comparison above would also pass if neither found any).
    for (const [i, page] of Object.values(PAGES).entries()) expect(ours[samples[i] ?? '']?.path).toBe(page.path);
    expect(ours['/no/such/page']).toBeUndefined();
  });

  it('reads a request’s path and query as the browser does, not as a URL with a host', () => {
    expect(splitUrl('//contact?x=1')).toEqual({ pathname: '//contact', search: '?x=1' });
    expect(splitUrl('/login')).toEqual({ pathname: '/login', search: '' });
  });
});
