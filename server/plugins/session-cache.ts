/**
 * Sessions resolved a moment ago, by token, so that a signed-in visitor's burst of requests (an on-sale:
 * reserve, pay, poll) costs one session query instead of one each. Never the only guard of a revocation:
 * - every change of a session or an account, in any process, evicts that user's entries (the database
 *   triggers of migration 0002_auth_notify.sql, relayed by the notifications plugin), and the cache is used only
 *   while that LISTEN connection is up (server/plugins/auth.ts);
 * - this process's own sign-outs, password and profile changes clear it before they answer (its sign-ins
 *   and sign-ups only add a session that nobody has cached, and keep it);
 * - a read that started before an eviction is not stored (the generation check), so it cannot bring back
 *   a session deleted meanwhile;
 * - an entry lives `ttlMs` at most, and never past the session's own expiry.
 * An entry lives between half its time to live and all of it, at random: buyers who all signed in (or were
 * all read) at the same moment of an on-sale are not read again all at once either.
 */
export class SessionCache<T extends { user: { id: string } }> {
  private readonly entries = new Map<string, { value: T | null; freshUntil: number }>();
  private currentGeneration = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    /** In [0, 1): how much of the time to live an entry gives up (times one half). */
    private readonly random: () => number = Math.random,
  ) {}

  /** Changes at every eviction: take it before reading the database, give it back to `set`. */
  get generation(): number {
    return this.currentGeneration;
  }

  /** The cached answer for `token` (a session, or null for none), or undefined when it must be read. */
  get(token: string, now = Date.now()): T | null | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (now >= entry.freshUntil) {
      this.entries.delete(token);
      return undefined;
    }
    return entry.value;
  }

  /** Stores what a read found, unless something was evicted since that read began. */
  set(token: string, value: T | null, expiresAt: number, generation: number, now = Date.now()): void {
    if (generation !== this.currentGeneration) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const ttl = this.ttlMs * (1 - this.random() / 2);
    this.entries.set(token, { value, freshUntil: Math.min(now + ttl, expiresAt) });
  }

  evictUser(userId: string): void {
    this.currentGeneration += 1;
    for (const [token, entry] of this.entries) {
      if (entry.value?.user.id === userId) this.entries.delete(token);
    }
  }

  clear(): void {
    this.currentGeneration += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
