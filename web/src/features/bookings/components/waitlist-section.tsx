import { useId } from 'react';
import { Link } from 'react-router';
import type { WaitlistItem } from '../../../../../contracts/waitlist';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { Time } from '../../../components/ui/time';
import { WaitlistOfferActions } from '../../../components/waitlist-offer';
import { useI18n } from '../../../lib/i18n';
import { offerText, wantedText } from '../../../lib/waitlist';
import { useDeclineWaitlistOffer } from '../api/decline-waitlist-offer';
import { useMyWaitlist } from '../api/get-my-waitlist';

const HEADING_ID = 'your-waitlists-heading';

/** The entries still in play: waiting in line, or holding tickets offered. */
function isOpen(item: WaitlistItem): boolean {
  return item.status === 'waiting' || (item.status === 'offered' && item.offer !== undefined);
}

/**
 * 'Your waitlists' on Your Tickets: each sold-out event the user waits for (their place in line) or holds
 * tickets offered to them (pay or decline), linking to its page. Not shown when there is none.
 */
export function WaitlistSection({ timeZone, fallbackFocusId }: { timeZone: string; fallbackFocusId: string }) {
  const { t } = useI18n();
  const { data, isError, isFetching, refetch } = useMyWaitlist();
  if (isError && !data) {
    return (
      <div role="alert" className="flex flex-wrap items-center gap-3 rounded-xl border border-border p-4">
        <p>{t('waitlist.listLoadFailed')}</p>
        <Button variant="secondary" size="sm" aria-busy={isFetching || undefined} onClick={() => void refetch()}>
          {isFetching ? <Spinner label={null} /> : null}
          {t('common.tryAgain')}
        </Button>
      </div>
    );
  }
  const items = data?.items.filter(isOpen);
  if (items?.length === 0) return null;
  // The focus after an offer is declined: this heading, or, once the last entry has gone with it, the next section's.
  const returnFocus = () => document.getElementById(HEADING_ID) ?? document.getElementById(fallbackFocusId);
  return (
    <Card className="flex flex-col gap-4 p-5 sm:p-6" aria-labelledby={HEADING_ID} role="region">
      <h2 id={HEADING_ID} tabIndex={-1} className="text-xl font-bold focus:outline-none">
        {t('waitlist.yourWaitlists')}
      </h2>
      {items === undefined ? (
        <Skeleton className="h-28" />
      ) : (
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2">
          {items.map((item) => (
            <li key={item.eventId} className="min-w-0">
              <WaitlistEntry item={item} timeZone={timeZone} returnFocus={returnFocus} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function WaitlistEntry({
  item,
  timeZone,
  returnFocus,
}: {
  item: WaitlistItem;
  timeZone: string;
  returnFocus: () => HTMLElement | null;
}) {
  const i18n = useI18n();
  const { t, date, weekday } = i18n;
  const titleId = useId();
  const decline = useDeclineWaitlistOffer(item);
  const offered = item.status === 'offered' && item.offer;
  return (
    <Card className={`flex h-full flex-col gap-3 p-4 shadow-none ${offered ? 'border-accent/50' : ''}`}>
      <div className="flex min-w-0 flex-col gap-1">
        <h3 id={titleId} className="line-clamp-2 text-lg font-semibold break-words">
          <Link
            to={`/event-details/${item.eventId}`}
            dir="auto"
            className="rounded-sm hover:text-accent hover:underline"
          >
            {item.title}
          </Link>
        </h3>
        {/* Read after the title, shown above it. */}
        <span
          className={`order-first mb-1 inline-flex w-fit items-center gap-2 rounded-full px-3 py-1 text-xs font-semibold ${
            offered ? 'bg-accent/15 text-accent' : 'bg-surface-overlay text-fg-muted'
          }`}
        >
          <span aria-hidden="true" className={`size-2 rounded-full ${offered ? 'bg-accent' : 'bg-fg-muted'}`} />
          {offered ? t('waitlist.offerTitle') : t('waitlist.waiting')}
        </span>
        <p className="text-sm text-fg-muted">
          {t('catalogue.weekdayDate', { weekday: weekday(item.eventDate), date: date(item.eventDate) })} ·{' '}
          <Time value={item.startTime} />
        </p>
      </div>
      {offered ? (
        <>
          <p className="text-sm">{offerText(i18n, offered, timeZone)}</p>
          <WaitlistOfferActions
            item={item}
            offer={offered}
            decline={() => decline.mutateAsync()}
            declining={decline.isPending}
            describedBy={titleId}
            returnFocus={returnFocus}
          />
        </>
      ) : (
        <div className="flex flex-col gap-1">
          {item.position === null ? null : (
            <p className="font-semibold">{t('waitlist.position', { position: item.position })}</p>
          )}
          <p className="text-sm text-fg-muted">{wantedText(i18n, item)}</p>
        </div>
      )}
    </Card>
  );
}
