import { Suspense, useEffect, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { categoryName } from '../../../../../contracts/category-name';
import { eventDescription } from '../../../../../contracts/event-description';
import { isUuid } from '../../../../../contracts/ids';
import { EVENT_HERO_SIZES, responsiveImage } from '../../../../../contracts/images';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Notice } from '../../../components/ui/notice';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { Time, TimeRange } from '../../../components/ui/time';
import { ApiError } from '../../../lib/api-client';
import { lazyChunk } from '../../../lib/chunk';
import { HydrateLater } from '../../../lib/hydrate-later';
import { useI18n } from '../../../lib/i18n';
import { refundPolicyText } from '../../../lib/refund-policy';
import { serverNow } from '../../../lib/server-clock';
import { countEventView } from '../api/count-view';
import { useEvent } from '../api/get-event';
import { useLiveEvents } from '../api/use-live-events';
import { IconArrowLeft, IconTicket } from '../components/event-details-icons';
import { IconCalendar, IconClock, IconPin } from '../components/icons';

/** The waitlist is its own chunk: only a sold-out event's page loads it. */
const loadWaitlist = () => import('../components/waitlist-panel');
const WaitlistPanel = lazyChunk(loadWaitlist, (m) => m.WaitlistPanel);
const GET_TICKET_ID = 'get-ticket';

/**
 * The event page: hero image, back button, title, description, hours, location and 'Book a Ticket' with the
 * refund policy, and under a sold-out event's price its waitlist; an event its organiser cancelled says so in place
 * of the booking card.
 */
export function EventDetailsRoute() {
  const { id = '' } = useParams();
  const valid = isUuid(id);
  useLiveEvents();
  const { data: event, error, isPending } = useEvent(id, { enabled: valid });
  const i18n = useI18n();
  const { t, date, weekday, price, number } = i18n;
  const soldOut = event !== undefined && event.ticketsAvailable === 0 && !event.cancelledAt && !event.isDeleted;
  // One view of the page for the organiser's funnel (an id that is no event is not counted by the server).
  useEffect(() => {
    if (valid) countEventView(id);
  }, [id, valid]);
  // Once shown, the waitlist stays while the page is open: tickets that come back may be held for this user.
  const [waitlistOf, setWaitlistOf] = useState<string | null>(null);
  useEffect(() => {
    if (soldOut) setWaitlistOf(id);
  }, [soldOut, id]);
  // Tickets came back while the user was joining the waitlist: 'Get ticket' takes the focus once it is there.
  const [focusGetTicket, setFocusGetTicket] = useState(false);
  useEffect(() => {
    if (!focusGetTicket) return;
    const link = document.getElementById(GET_TICKET_ID);
    if (link) {
      link.focus();
      setFocusGetTicket(false);
    }
  });
  useDocumentMeta(
    event?.title ?? (isPending ? i18n.t('catalogue.eventFallbackTitle') : ''),
    event ? eventDescription(event, i18n) : undefined,
  );

  if (!valid || (error instanceof ApiError && error.status === 404)) return <Navigate to="/404" replace />;
  if (error) {
    return (
      <PageContainer>
        <p role="alert" className="py-16 text-center text-fg-muted">
          {i18n.t('common.somethingWentWrong')}
        </p>
      </PageContainer>
    );
  }
  if (!event) return <EventDetailsSkeleton />;

  return (
    <article>
      <div className="relative">
        <img
          {...responsiveImage(event.imageUrl, EVENT_HERO_SIZES)}
          alt={event.title}
          width={1200}
          height={675}
          fetchPriority="high"
          className="aspect-[16/9] max-h-[28rem] w-full object-cover sm:aspect-[21/9]"
        />
        <div aria-hidden="true" className="absolute inset-0 bg-gradient-to-t from-surface to-transparent" />
        {/* Lined up with the page's content below (PageContainer's width and padding), not the image's edge. */}
        <div className="pointer-events-none absolute inset-x-0 top-4 sm:top-6">
          <div className="mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8">
            <Link
              to="/events-page/all"
              aria-label={t('catalogue.backToEvents')}
              className="pointer-events-auto grid size-11 place-items-center rounded-full bg-black/60 text-white backdrop-blur hover:bg-black/80"
            >
              <IconArrowLeft className="size-5 rtl:-scale-x-100" />
            </Link>
          </div>
        </div>
      </div>
      <PageContainer className="-mt-16 grid gap-8 lg:grid-cols-[1fr_20rem]">
        <div className="relative flex flex-col gap-6">
          <div>
            <p className="text-sm font-semibold tracking-widest text-accent uppercase">
              {categoryName({ id: event.categoryId, name: event.categoryName }, i18n)}
            </p>
            <h1 className="mt-2 text-3xl font-black tracking-tight sm:text-5xl">
              <bdi>{event.title}</bdi>
            </h1>
            <p className="mt-2 text-fg-muted">
              {t('catalogue.hostedBy')} <bdi>{event.host}</bdi>
            </p>
          </div>
          <ul className="flex flex-col gap-3 text-fg">
            <li className="flex items-center gap-3">
              <IconCalendar className="size-5 shrink-0 text-accent" />
              <span>
                {t('catalogue.weekdayDate', { weekday: weekday(event.eventDate), date: date(event.eventDate) })}
              </span>
            </li>
            <li className="flex items-center gap-3">
              <IconClock className="size-5 shrink-0 text-accent" />
              <span>
                <TimeRange start={event.startTime} end={event.endTime} />
              </span>
            </li>
            <li className="flex items-center gap-3">
              <IconPin className="size-5 shrink-0 text-accent" />
              <span dir="auto">{event.location}</span>
            </li>
          </ul>
          <section aria-labelledby="about-title" className="flex flex-col gap-2">
            <h2 id="about-title" className="text-xl font-bold">
              {t('catalogue.aboutEvent')}
            </h2>
            <p dir="auto" className="leading-relaxed whitespace-pre-line text-fg-muted">
              {event.description}
            </p>
          </section>
        </div>
        {/* Adopted after the rest of the page, in a task of its own (lib/hydrate-later.tsx). */}
        <HydrateLater>
          {event.cancelledAt ? (
            <aside aria-labelledby="cancelled-title" className="relative lg:sticky lg:top-6 lg:self-start">
              <Notice title={t('catalogue.eventCancelled')} titleId="cancelled-title">
                <p>{t('catalogue.eventCancelledDetail')}</p>
              </Notice>
            </aside>
          ) : (
            <aside aria-labelledby="book-title" className="relative lg:sticky lg:top-6 lg:self-start">
              <Card className="flex flex-col gap-4 p-6">
                <h2 id="book-title" className="flex items-center gap-2 text-xl font-bold">
                  <IconTicket className="size-5 text-accent" />
                  {t('catalogue.bookATicket')}
                </h2>
                <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
                  <dt className="text-fg-muted">{t('catalogue.date')}</dt>
                  <dd className="text-end font-medium">{date(event.eventDate)}</dd>
                  <dt className="text-fg-muted">{t('catalogue.starts')}</dt>
                  <dd className="text-end font-medium">
                    <Time value={event.startTime} />
                  </dd>
                  <dt className="text-fg-muted">{t('catalogue.ticketsLeft')}</dt>
                  <dd className="text-end font-medium" aria-live="polite" data-testid="tickets-available">
                    {number(event.ticketsAvailable)}
                  </dd>
                </dl>
                {event.ticketsAvailable === 0 ? (
                  // Nothing to choose on the ticket page: say so here, with the price still shown.
                  <Button size="lg" className="w-full" disabled>
                    {price(event.pricePiasters)} {t('catalogue.soldOutSuffix')}
                  </Button>
                ) : (
                  <ButtonLink
                    id={GET_TICKET_ID}
                    to={`/event-details/${event.id}/get-ticket`}
                    size="lg"
                    className="w-full"
                  >
                    {price(event.pricePiasters)}
                  </ButtonLink>
                )}
                {soldOut || waitlistOf === event.id ? (
                  <Suspense fallback={<Skeleton className="h-40 w-full" />}>
                    <WaitlistPanel event={event} onTicketsBack={() => setFocusGetTicket(true)} />
                  </Suspense>
                ) : null}
                <p className="text-sm text-fg-muted" data-testid="refund-policy">
                  {refundPolicyText(i18n, event, serverNow())}
                </p>
              </Card>
            </aside>
          )}
        </HydrateLater>
      </PageContainer>
    </article>
  );
}

function EventDetailsSkeleton() {
  const { t } = useI18n();
  return (
    <output aria-busy="true" aria-label={t('catalogue.loadingEvent')} className="block">
      <Skeleton className="aspect-[16/9] max-h-[28rem] w-full rounded-none sm:aspect-[21/9]" />
      <PageContainer className="grid gap-8 lg:grid-cols-[1fr_20rem]">
        <div className="flex flex-col gap-4">
          <Skeleton className="h-12 w-2/3" />
          <Skeleton className="h-5 w-1/3" />
          <Skeleton className="h-24 w-full" />
        </div>
        <Skeleton className="h-56 w-full" />
      </PageContainer>
    </output>
  );
}
