import { useEffect, useState } from 'react';
import { HOME_SKELETON_MS } from '../../../../../contracts/constants';
import { messages } from '../../../../../contracts/messages';
import { ButtonLink } from '../../../components/ui/button';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { useEvents } from '../api/get-events';
import { useLiveEvents } from '../api/use-live-events';
import { EventBanner, EventBannerSkeleton } from '../components/event-banner';
import { EventCard, EventCardSkeleton, EventGrid } from '../components/event-card';
import { ScrollToTopButton } from '../components/scroll-to-top-button';

/** True once `ms` have passed since mount (the spec's deliberate 1 s skeleton). */
function useElapsed(ms: number): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setElapsed(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return elapsed;
}

/** SPEC §2 Home: banner with the first event, up to 6 events by start, 'See More', scroll-to-top. */
export function HomeRoute() {
  useDocumentMeta(
    '',
    'Discover concerts, sports, tech meetups, art and food events near you, and book your tickets in seconds.',
  );
  useLiveEvents();
  const { data, isPending, isError, refetch } = useEvents({ page: 1 });
  const ready = useElapsed(HOME_SKELETON_MS) && !isPending;
  const events = data?.items ?? [];
  const [first] = events;

  return (
    <>
      {!ready ? <EventBannerSkeleton /> : first ? <EventBanner event={first} /> : <div className="h-24" />}
      <PageContainer className="flex flex-col gap-8 py-12">
        <h2 className="text-2xl font-bold sm:text-3xl">Upcoming events</h2>
        {!ready ? (
          <output aria-busy="true" aria-label="Loading events" className="block">
            <EventGrid>
              {Array.from({ length: 6 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
                <EventCardSkeleton key={i} />
              ))}
            </EventGrid>
          </output>
        ) : isError ? (
          <div role="alert" className="flex flex-col items-center gap-4 py-16 text-center">
            <p className="text-fg-muted">{messages.common.somethingWentWrong}</p>
            <button type="button" className="text-accent underline" onClick={() => refetch()}>
              Try again
            </button>
          </div>
        ) : events.length === 0 ? (
          <p className="py-16 text-center text-xl font-semibold text-fg-muted">{messages.catalogue.homeEmpty}</p>
        ) : (
          <>
            <EventGrid>
              {events.map((event) => (
                <EventCard key={event.id} event={event} />
              ))}
            </EventGrid>
            <div className="flex justify-center">
              {/* The visible text stays the spec's 'See More'; the link's text (and name) says where it goes. */}
              <ButtonLink to="/events-page/all" size="lg">
                {messages.catalogue.seeMore}
                <span className="sr-only"> events</span>
              </ButtonLink>
            </div>
          </>
        )}
      </PageContainer>
      <ScrollToTopButton />
    </>
  );
}
