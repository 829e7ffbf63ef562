import FindMyWay from 'find-my-way';

const noop = () => {};

/**
 * Which methods the API answers at an address, so that a known address asked with another method gets
 * 405 Method Not Allowed and an Allow header (RFC 9110 §15.5.6) instead of a 404, which told a client the
 * resource does not exist. The app copies every /api route into it as the route is registered; it is
 * find-my-way, Fastify's own router, built with the app's router options, so addresses match exactly as
 * they do for the real routes. Only requests no route answered ask it: answered requests pay nothing.
 */
export class AllowedMethods {
  private readonly router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;
  private readonly known = new Set<string>();
  private readonly methods = new Set<string>();

  constructor(routerOptions: FindMyWay.Config<FindMyWay.HTTPVersion.V1>) {
    this.router = FindMyWay(routerOptions);
  }

  /** A route as registered (HEAD comes with GET, as Fastify adds it). Only /api routes are kept. */
  add(method: string, url: string): void {
    if (url !== '/api' && !url.startsWith('/api/')) return;
    for (const each of method === 'GET' ? ['GET', 'HEAD'] : [method]) {
      const key = `${each} ${url}`;
      if (this.known.has(key)) continue;
      this.known.add(key);
      this.methods.add(each);
      this.router.on(each as FindMyWay.HTTPMethod, url, noop);
    }
  }

  /** The methods some route answers at `pathname`, in the order they were first registered. */
  at(pathname: string): string[] {
    return [...this.methods].filter((method) => this.router.find(method as FindMyWay.HTTPMethod, pathname));
  }
}
