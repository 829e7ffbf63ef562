import { Link } from 'react-router';
import type { EventDto } from '../../../../../contracts/catalogue';
import { EVENT_CARD_SIZES, responsiveImage } from '../../../../../contracts/images';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../components/ui/cn';
import { Skeleton } from '../../../components/ui/skeleton';
import { Time } from '../../../components/ui/time';
import { useI18n } from '../../../lib/i18n';
import { IconCalendar, IconClock, IconPin } from './icons';

/**
 * An event's card: image, title, host, event date, start time, location and a '{price} EGP' button;
 * hovering (or focusing) shows 'More Details'. The whole card is one link to the event.
 */
export function EventCard({ event, priority = false }: { event: EventDto; priority?: boolean }) {
  const { t, date, price } = useI18n();
  return (
    <Card className="group relative flex flex-col overflow-hidden transition-transform focus-within:ring-2 focus-within:ring-accent hover:-translate-y-1 skip-offscreen">
      <div className="relative aspect-video overflow-hidden bg-surface-overlay">
        <img
          {...responsiveImage(event.imageUrl, EVENT_CARD_SIZES)}
          alt={event.title}
          width={1200}
          height={675}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : undefined}
          decoding={priority ? undefined : 'async'}
          className="size-full object-cover transition-transform duration-300 group-hover:scale-105"
        />
        <div
          aria-hidden="true"
          className="absolute inset-0 grid place-items-center bg-black/60 opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100"
        >
          <span className="rounded-full border border-white/70 px-4 py-2 text-sm font-semibold text-white">
            {t('catalogue.moreDetails')}
          </span>
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div>
          <h3 className="line-clamp-2 text-lg font-bold leading-snug">
            <Link
              to={`/event-details/${event.id}`}
              className="outline-none after:absolute after:inset-0 after:content-['']"
              dir="auto"
            >
              {event.title}
            </Link>
          </h3>
          <p className="mt-1 text-sm text-fg-muted">
            <bdi>{event.host}</bdi>
          </p>
        </div>
        <ul className="flex flex-col gap-1.5 text-sm text-fg-muted">
          <li className="flex items-center gap-2">
            <IconCalendar />
            <span>{date(event.eventDate)}</span>
          </li>
          <li className="flex items-center gap-2">
            <IconClock />
            <Time value={event.startTime} />
          </li>
          <li className="flex items-center gap-2">
            <IconPin />
            <span className="min-w-0 truncate" dir="auto">
              {event.location}
            </span>
          </li>
        </ul>
        <div className="mt-auto flex items-center justify-between gap-3 pt-1">
          <span className={cn(buttonClasses('primary', 'sm'), 'pointer-events-none')}>
            {price(event.pricePiasters)}
          </span>
          {event.ticketsAvailable === 0 ? (
            <span className="text-xs font-medium text-danger">{t('catalogue.soldOut')}</span>
          ) : null}
        </div>
      </div>
    </Card>
  );
}

export function EventCardSkeleton() {
  return (
    <Card className="flex flex-col overflow-hidden skip-offscreen">
      <Skeleton className="aspect-video rounded-none" />
      <div className="flex flex-col gap-3 p-5">
        <Skeleton className="h-6 w-3/4" />
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="h-4 w-2/5" />
        <Skeleton className="h-9 w-24" />
      </div>
    </Card>
  );
}

export function EventGrid({ children }: { children: React.ReactNode }) {
  return <div className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">{children}</div>;
}
