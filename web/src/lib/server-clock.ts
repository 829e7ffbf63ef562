/**
 * The server's clock, as this device can tell it from an answer's Date header: a hold's countdown must end
 * when the server's hold does, not when a device whose clock runs minutes ahead (or behind) thinks so.
 */

/** Differences this small are the header's whole seconds and the trip, not a wrong clock: ignored. */
const NOISE_MS = 2_000;

/**
 * How far the server's clock is ahead of this device's (ms, negative when behind), from a Date header
 * received at `receivedAt` on this device's clock; 0 when the header is missing, unreadable or within noise.
 */
export function clockOffset(dateHeader: string, receivedAt: number): number {
  const server = Date.parse(dateHeader);
  if (Number.isNaN(server)) return 0;
  // The header gives whole seconds: the server's time was somewhere within that second.
  const offset = server + 500 - receivedAt;
  return Math.abs(offset) < NOISE_MS ? 0 : offset;
}

let offsetMs: number | undefined;

/**
 * Takes the server's clock from the last API answer (web/src/lib/api-client.ts keeps its Date header), once:
 * two clocks' difference does not change while the page is open.
 */
export function noteServerClock(answer: { date: string; at: number }): void {
  offsetMs ??= clockOffset(answer.date, answer.at);
}

/** Now, on the server's clock as last seen (this device's clock until an answer has been noted). */
export function serverNow(): number {
  return Date.now() + (offsetMs ?? 0);
}
