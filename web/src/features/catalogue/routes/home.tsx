import { useState } from 'react';
import { HOME_SKELETON_MS } from '../../../../../contracts/constants';
import { ButtonLink } from '../../../components/ui/button';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Reveal } from '../../../components/ui/reveal';
import { lazyChunk } from '../../../lib/chunk';
import { HydrateLater } from '../../../lib/hydrate-later';
import { useI18n } from '../../../lib/i18n';
import { useEvents } from '../api/get-events';
import { useLiveEvents } from '../api/use-live-events';
import { EventBanner, EventBannerSkeleton } from '../components/event-banner';
import { EventCard, EventCardSkeleton, EventGrid } from '../components/event-card';
import { ScrollToTopButton } from '../components/scroll-to-top-button';

/** Loaded once the page has scrolled far (ScrollToTopButton). */
const ScrollToTop = lazyChunk(
  () => import('../components/scroll-to-top'),
  (m) => m.ScrollToTop,
);

/**
 * How long the skeleton still shows once the events are here: the spec's 1 s counted from when the page
 * appeared. Events already known when the page is drawn (rendered by the server, or cached) get the whole
 * second; events that arrive later get what is left of it.
 */
function useSkeletonDelay(loaded: boolean): number | undefined {
  const [shownAt] = useState(() => performance.now());
  const [delay, setDelay] = useState(() => (loaded ? HOME_SKELETON_MS : undefined));
  if (loaded && delay === undefined) {
    setDelay(Math.max(0, Math.round(HOME_SKELETON_MS - (performance.now() - shownAt))));
  }
  return loaded ? delay : undefined;
}

function GridSkeleton() {
  return (
    <EventGrid>
      {Array.from({ length: 6 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <EventCardSkeleton key={i} />
      ))}
    </EventGrid>
  );
}

/** Home: banner with the first event, up to 6 events by start, 'See More', scroll-to-top (e2e/catalogue.spec.ts). */
export function HomeRoute() {
  const { t } = useI18n();
  useDocumentMeta('', t('catalogue.homeDescription'));
  useLiveEvents();
  const { data, isError, refetch } = useEvents({ page: 1 });
  const delay = useSkeletonDelay(data !== undefined);
  const events = data?.items ?? [];
  const [first] = events;

  return (
    <>
      {/* The banner shows as soon as its event is known; the grid's placeholders keep the spec's second
          (docs/decisions/008-home-skeleton-covers-the-grid.md). */}
      {first ? (
        <HydrateLater>
          <EventBanner event={first} />
        </HydrateLater>
      ) : delay === undefined && !isError ? (
        <EventBannerSkeleton />
      ) : (
        <div className="h-24" />
      )}
      <PageContainer className="flex flex-col gap-8 py-12">
        <h2 className="text-2xl font-bold sm:text-3xl">{t('catalogue.upcomingEvents')}</h2>
        {isError && delay === undefined ? (
          <div role="alert" className="flex flex-col items-center gap-4 py-16 text-center">
            <p className="text-fg-muted">{t('common.somethingWentWrong')}</p>
            <button type="button" className="text-accent underline" onClick={() => refetch()}>
              {t('catalogue.tryAgain')}
            </button>
          </div>
        ) : delay === undefined ? (
          <output aria-busy="true" aria-label={t('catalogue.loadingEvents')} className="block">
            <GridSkeleton />
          </output>
        ) : events.length === 0 ? (
          <Reveal delayMs={delay} skeleton={<GridSkeleton />}>
            <p className="py-16 text-center text-xl font-semibold text-fg-muted">{t('catalogue.homeEmpty')}</p>
          </Reveal>
        ) : (
          <Reveal delayMs={delay} skeleton={<GridSkeleton />}>
            <div className="flex flex-col gap-8">
              <EventGrid>
                {events.map((event) => (
                  <HydrateLater key={event.id}>
                    <EventCard event={event} />
                  </HydrateLater>
                ))}
              </EventGrid>
              <div className="flex justify-center">
                {/* The visible text stays the spec's 'See More'; the link's text (and name) says where it goes. */}
                <ButtonLink to="/events-page/all" size="lg">
                  {t('catalogue.seeMore')}
                  <span className="sr-only">{t('catalogue.seeMoreHint')}</span>
                </ButtonLink>
              </div>
            </div>
          </Reveal>
        )}
      </PageContainer>
      <ScrollToTopButton button={ScrollToTop} />
    </>
  );
}
