/**
 * Stands in for TanStack Query's infiniteQueryBehavior (vite.config.ts): the app has no infinite queries, and the
 * query cache would otherwise carry their paging code (~0.9 KB gzip) on every first load.
 */
export function infiniteQueryBehavior(): never {
  throw new Error('Infinite queries are not built into Eventry (vite.config.ts noInfiniteQueries)');
}
