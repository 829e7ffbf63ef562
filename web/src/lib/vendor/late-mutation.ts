/**
 * Stands in for TanStack Query's `Mutation` class where the mutation cache imports it (vite.config.ts
 * lateMutations). Every page loads the query client, and with it the mutation cache, but only the pages that
 * change something (forms, booking, admin) run a mutation: the class (~1 KB gzip) comes with `useMutation`, in
 * their chunk, whose `MutationObserver` hands it over here before it can ask the cache to build a mutation.
 */
type MutationClass = new (config: never) => object;

let RealMutation: MutationClass | undefined;

/** Called when the chunk holding TanStack's `MutationObserver` loads (the plugin adds the call). */
export function provideMutation(real: MutationClass): void {
  RealMutation = real;
}

/** `new Mutation(config)` in the mutation cache: a function returning an object makes `new` return that object. */
export const Mutation = function Mutation(config: never): object {
  if (!RealMutation) throw new Error('A mutation was built before useMutation loaded (vite.config.ts lateMutations)');
  return new RealMutation(config);
} as unknown as MutationClass;
