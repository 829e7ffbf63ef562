import { options } from 'preact';

/**
 * The app is written against React and runs on Preact's React-compatible core
 * (docs/decisions/026-preact-runs-the-react-code.md). React runs the effects of an update made by a click or a key
 * before the next event is handled; Preact runs them after the next frame. A listener an effect attaches when a menu
 * opens (Escape closes it) could then miss an Escape pressed right after the click: e2e/catalogue.spec.ts 'the
 * hamburger opens the link menu' failed so once. Effects here run at the end of the task that committed them, so
 * whatever an update's effects attach is there before the next event, as in React.
 */
options.requestAnimationFrame = (flush) => queueMicrotask(flush);
