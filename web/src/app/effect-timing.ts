import { options } from 'preact';

/**
 * The app is written against React and runs on Preact's React-compatible core
 * (docs/decisions/026-preact-runs-the-react-code.md). React runs the effects of an update made by a click or a key
 * before the next event is handled; Preact runs them after the next frame. A listener an effect attaches when a menu
 * opens (Escape closes it) could then miss an Escape pressed right after the click: e2e/catalogue.spec.ts 'the
 * hamburger opens the link menu' failed so once. After this call, effects run at the end of the task that committed
 * them, so whatever an update's effects attach is there before the next event, as in React.
 *
 * boot.tsx calls it once the app's first render (hydrating the server's page, or drawing it) is done: that render's
 * effects run after the next frame, as React runs those of a render no event caused. In the same task as hydrating
 * they made the longest task of a first load longer (docs/performance-notes.md, 2026-11-29 afternoon).
 */
export function runEffectsInTheCommittingTask(): void {
  options.requestAnimationFrame = (flush) => queueMicrotask(flush);
}
