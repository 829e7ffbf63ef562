import { iconOf } from './icons';

/**
 * The icons only the event page draws. Apart from icons.tsx, which the shared shell chunk carries with every
 * export any page uses (vite.config.ts SHELL_MODULES): these come with the event page's chunk.
 */
export const IconTicket = /* @__PURE__ */ iconOf(
  'M4 7a2 2 0 012-2h12a2 2 0 012 2v2a2 2 0 000 4v2a2 2 0 01-2 2H6a2 2 0 01-2-2v-2a2 2 0 000-4V7zM14 5v12',
);
export const IconArrowLeft = /* @__PURE__ */ iconOf('M19 12H5M11 6l-6 6 6 6');
