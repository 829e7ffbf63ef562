import type { FastifyInstance } from 'fastify';
import FindMyWay from 'find-my-way';

const noop = () => {};

/**
 * Which methods the API answers at an address, so that a known address asked with another method gets
 * 405 Method Not Allowed and an Allow header (RFC 9110 §15.5.5) instead of Fastify's 404, which told a
 * client the resource does not exist. Every /api route is copied, as it is registered, into a router of
 * its own (find-my-way, Fastify's router, so paths match exactly as they do for the real routes); the
 * not-found handler asks it only for requests that matched no route, so answered requests pay nothing.
 * Call before any route is registered.
 */
export function trackAllowedMethods(
  app: FastifyInstance,
  routerOptions: { maxParamLength?: number } = {},
): (pathname: string) => string[] {
  const router = FindMyWay({ maxParamLength: routerOptions.maxParamLength });
  const known = new Set<string>();
  const methods = new Set<string>();
  const add = (method: string, url: string) => {
    const key = `${method} ${url}`;
    if (known.has(key)) return;
    known.add(key);
    methods.add(method);
    router.on(method as FindMyWay.HTTPMethod, url, noop);
  };
  app.addHook('onRoute', (route) => {
    if (route.url !== '/api' && !route.url.startsWith('/api/')) return;
    for (const method of [route.method].flat()) {
      add(method, route.url);
      if (method === 'GET') add('HEAD', route.url);
    }
  });
  return (pathname) => [...methods].filter((method) => router.find(method as FindMyWay.HTTPMethod, pathname));
}
