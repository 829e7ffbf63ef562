import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, Suspense, useEffect, useState } from 'react';
import type { I18n } from '../../../contracts/i18n/i18n';
import { ApiError } from '../lib/api-client';
import { lazyChunk } from '../lib/chunk';
import { I18nProvider } from '../lib/i18n';
import { ErrorBoundary } from './error-boundary';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
      },
    },
  });
}

/** The browser's one query cache (the server renders each page with a fresh one: web/src/app/ssr.tsx). */
export const queryClient = createQueryClient();

const AppToaster = lazyChunk(
  () => import('./toaster'),
  (m) => m.default,
);
/** Without any interaction, the toaster still mounts this long after the page has loaded. */
const TOASTER_IDLE_MS = 3_000;
const INTERACTIONS = ['pointerdown', 'keydown', 'touchstart', 'focusin'] as const;

let toasterWanted = false;
const toasterRequests = new Set<() => void>();

/** Mounts the toaster at once, for a toast raised before any interaction (e.g. on landing from an emailed link). */
export function mountToasterNow(): void {
  toasterWanted = true;
  for (const request of toasterRequests) request();
}

/**
 * The toaster (sonner, ~7 KB gzip) is not needed to show a page, so it mounts on the first interaction
 * or a few seconds after load, whichever comes first. Nothing is lost before that: a toast raised
 * earlier waits in sonner's store and shows as soon as the toaster mounts.
 */
function DeferredToaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    if (mounted) return;
    const mount = () => setMounted(true);
    if (toasterWanted) mount();
    toasterRequests.add(mount);
    for (const type of INTERACTIONS) window.addEventListener(type, mount, { once: true, passive: true, capture: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const afterLoad = () => {
      timer = setTimeout(mount, TOASTER_IDLE_MS);
    };
    if (document.readyState === 'complete') afterLoad();
    else window.addEventListener('load', afterLoad, { once: true });
    return () => {
      toasterRequests.delete(mount);
      for (const type of INTERACTIONS) window.removeEventListener(type, mount, { capture: true });
      window.removeEventListener('load', afterLoad);
      clearTimeout(timer);
    };
  }, [mounted]);
  if (!mounted) return null;
  return (
    <ErrorBoundary fallback={null}>
      <Suspense fallback={null}>
        <AppToaster />
      </Suspense>
    </ErrorBoundary>
  );
}

export function AppProviders({
  client = queryClient,
  i18n,
  children,
}: {
  client?: QueryClient;
  i18n: I18n;
  children: ReactNode;
}) {
  const tree = (
    <QueryClientProvider client={client}>
      {children}
      <DeferredToaster />
    </QueryClientProvider>
  );
  // The browser has one language per page load and reads it directly (lib/i18n.tsx); the server's renders carry
  // theirs in a context.
  return import.meta.env.SSR ? <I18nProvider value={i18n}>{tree}</I18nProvider> : tree;
}
