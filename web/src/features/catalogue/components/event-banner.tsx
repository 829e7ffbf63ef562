import type { EventDto } from '../../../../../contracts/catalogue';
import { categoryName } from '../../../../../contracts/category-name';
import { ButtonLink } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { Time } from '../../../components/ui/time';
import { useI18n } from '../../../lib/i18n';
import { IconCalendar, IconPin } from './icons';

const bannerFrame = 'relative isolate flex min-h-[32rem] items-end overflow-hidden pt-24 sm:min-h-[36rem]';

/** The home banner: the first upcoming event, full width, under the transparent header. */
export function EventBanner({ event }: { event: EventDto }) {
  const i18n = useI18n();
  const { t, date, weekday, price } = i18n;
  return (
    <section aria-labelledby="banner-title" className={bannerFrame}>
      <img
        src={event.imageUrl}
        alt={event.title}
        width={1200}
        height={675}
        fetchPriority="high"
        className="absolute inset-0 -z-10 size-full object-cover"
      />
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-gradient-to-t from-surface via-surface/60 to-black/40"
      />
      <div className="mx-auto w-full max-w-6xl px-4 pb-12 sm:px-6 lg:px-8">
        <p className="text-sm font-semibold tracking-widest text-accent uppercase">
          {categoryName({ id: event.categoryId, name: event.categoryName }, i18n)}
        </p>
        <h1 id="banner-title" className="mt-2 max-w-3xl text-4xl font-black tracking-tight sm:text-6xl">
          <bdi>{event.title}</bdi>
        </h1>
        <p className="mt-3 text-lg text-fg-muted">
          <bdi>{event.host}</bdi>
        </p>
        <ul className="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-sm text-fg">
          <li className="flex items-center gap-2">
            <IconCalendar />
            {t('catalogue.weekdayDate', { weekday: weekday(event.eventDate), date: date(event.eventDate) })} ·{' '}
            <Time value={event.startTime} />
          </li>
          <li className="flex items-center gap-2">
            <IconPin />
            <span dir="auto">{event.location}</span>
          </li>
        </ul>
        <div className="mt-6 flex flex-wrap gap-3">
          <ButtonLink to={`/event-details/${event.id}`} size="lg">
            {t('catalogue.moreDetails')}
          </ButtonLink>
          <ButtonLink to={`/event-details/${event.id}/get-ticket`} size="lg" variant="secondary">
            {t('catalogue.bookATicket')} · {price(event.pricePiasters)}
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}

export function EventBannerSkeleton() {
  return (
    <div className={bannerFrame} aria-hidden="true">
      <Skeleton className="absolute inset-0 -z-10 rounded-none" />
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-4 px-4 pb-12 sm:px-6 lg:px-8">
        <Skeleton className="h-4 w-24 bg-surface-raised" />
        <Skeleton className="h-14 w-2/3 bg-surface-raised" />
        <Skeleton className="h-5 w-40 bg-surface-raised" />
        <Skeleton className="h-12 w-48 bg-surface-raised" />
      </div>
    </div>
  );
}
