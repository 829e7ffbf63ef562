import { PAGES, type PageId, type PageRoute } from '../../contracts/pages';

/**
 * Which page of the route manifest (contracts/pages.ts) the web app shows at an address, matched as React Router
 * matches it (its matchRoutes: the path decoded segment by segment, fixed parts in any case, any trailing
 * slashes, `:name` one segment), so that the server answers, guards and names the page the browser then shows.
 * page-match.test.ts holds this to React Router's own answers.
 */

export interface PageMatch {
  id: PageId;
  page: PageRoute;
  /** The pattern's parameters, decoded. */
  params: Record<string, string>;
}

/**
 * A request's path and query as the browser's router reads them. Not `new URL(url, base)`: that reads
 * `//contact` as a host name with the path `/`, and throws on `//[`.
 */
export function splitUrl(url: string): { pathname: string; search: string } {
  const q = url.indexOf('?');
  return q < 0 ? { pathname: url, search: '' } : { pathname: url.slice(0, q), search: url.slice(q) };
}

/** Each segment decoded, an encoded slash left as %2F; a path that cannot be decoded is read as it is. */
function decodePath(pathname: string): string {
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replaceAll('/', '%2F'))
      .join('/');
  } catch {
    return pathname;
  }
}

/** React Router's rank of a pattern: the more segments the better, a fixed one worth more than a parameter. */
function rank(pattern: string): number {
  const segments = pattern.split('/');
  return segments.reduce((score, s) => score + (s.startsWith(':') ? 3 : s === '' ? 1 : 10), segments.length);
}

const MATCHERS = (Object.keys(PAGES) as PageId[])
  .map((id) => {
    const page = PAGES[id];
    const names: string[] = [];
    const source = page.path.replace(/[\\.*+^${}|()[\]]/g, '\\$&').replace(/\/:([\w-]+)/g, (_, name: string) => {
      names.push(name);
      return '/([^\\/]+)';
    });
    return { id, page, names, pattern: new RegExp(`^${source}\\/*$`, 'i') };
  })
  .sort((a, b) => rank(b.page.path) - rank(a.page.path));

/** The page at `pathname`; undefined where the web app shows its 404 page. */
export function matchPage(pathname: string): PageMatch | undefined {
  const decoded = decodePath(pathname);
  for (const { id, page, names, pattern } of MATCHERS) {
    const found = pattern.exec(decoded);
    if (!found) continue;
    const params = Object.fromEntries(names.map((name, i) => [name, (found[i + 1] ?? '').replaceAll('%2F', '/')]));
    return { id, page, params };
  }
  return undefined;
}
