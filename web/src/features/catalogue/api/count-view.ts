/**
 * Counts one opening of an event page for the organiser's funnel (POST /api/events/:id/view). No cookie goes with
 * it and nothing waits for it: a lost count costs the page nothing, and it still goes when the page is left.
 */
export function countEventView(eventId: string): void {
  fetch(`/api/events/${encodeURIComponent(eventId)}/view`, {
    method: 'POST',
    keepalive: true,
    credentials: 'omit',
  }).catch(() => {});
}
