import { type ReactNode, Suspense, useState } from 'react';

/**
 * Parts of a server-drawn page that the app adopts a moment later, each in a task of its own.
 *
 * Hydrating a page is one synchronous pass over all of it: on the catalogue's pages, most of that pass is the cards,
 * and on a slow phone the one long task kept the page from answering a tap (docs/performance-notes.md, 2026-11-29
 * evening). Preact keeps the server's HTML of a part that suspends while hydrating, and hydrates it when the part
 * is resumed. So while boot.tsx hydrates the page, each `<HydrateLater>` suspends until a timer of its own has
 * fired; each part is then hydrated in the task that timer runs in. Until then the part is the server's HTML,
 * styled and readable, its links plain links. Drawn any other way (on the server, or by the app later) the parts
 * are drawn at once.
 *
 * The children must be one element: Preact keeps one node for a part that suspends while hydrating.
 */
export function HydrateLater({ children }: { children: ReactNode }) {
  const [gate] = useState(() => (hydrating ? gateAfterATask() : OPEN));
  return (
    <Suspense fallback={null}>
      <Gate gate={gate}>{children}</Gate>
    </Suspense>
  );
}

/** Runs the app's first hydration of the server's page: the `<HydrateLater>` parts in it wait. */
export function hydrateTheServersPage(hydrate: () => void): void {
  hydrating = true;
  try {
    hydrate();
  } finally {
    hydrating = false;
  }
}

/**
 * Runs `callback` once every part waiting in the first hydration has been adopted (at once if none waits), in a
 * task after the last one's: the moment the whole page answers as the app (app/layout/root-layout.tsx marks it).
 */
export function whenHydrated(callback: () => void): void {
  if (waiting === 0) callback();
  else whenAllAdopted.push(callback);
}

/**
 * Whether the update about to be scheduled resumes a part's hydration (for app/whole-stylesheet.ts: adopting the
 * server's HTML is not the app changing the page).
 */
export function isResumingHydration(): boolean {
  return resuming > 0;
}

interface HydrationGate {
  open: boolean;
  promise: Promise<void>;
}

const OPEN: HydrationGate = { open: true, promise: Promise.resolve() };
let hydrating = false;
let resuming = 0;
/** Parts of the first hydration not adopted yet, and what waits for them. */
let waiting = 0;
let whenAllAdopted: Array<() => void> = [];

function gateAfterATask(): HydrationGate {
  const gate: HydrationGate = { open: false, promise: Promise.resolve() };
  waiting++;
  gate.promise = new Promise<void>((resolve) =>
    setTimeout(() => {
      gate.open = true;
      if (--waiting === 0) {
        const callbacks = whenAllAdopted;
        whenAllAdopted = [];
        // In a task of its own: after this one has rendered the part and run its effects.
        if (callbacks.length)
          setTimeout(() => {
            for (const callback of callbacks) callback();
          });
      }
      // Resolving queues the waiting Suspense's reaction (it schedules the part's render) before this
      // microtask: the render is scheduled while `resuming` still counts it.
      resuming++;
      resolve();
      queueMicrotask(() => {
        resuming--;
      });
    }, 0),
  );
  return gate;
}

function Gate({ gate, children }: { gate: HydrationGate; children: ReactNode }) {
  if (!gate.open) throw gate.promise;
  return children;
}
