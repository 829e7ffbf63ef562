import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, type Ref, useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { EventDto } from '../../../../../contracts/catalogue';
import { MAX_TICKETS_PER_BOOKING, MIN_TICKETS_PER_BOOKING } from '../../../../../contracts/constants';
import type { WaitlistItem } from '../../../../../contracts/waitlist';
import { Button, ButtonLink } from '../../../components/ui/button';
import { SelectField } from '../../../components/ui/select-field';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { WaitlistOfferActions } from '../../../components/waitlist-offer';
import { ApiError, isSessionEnded } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { offerText, waitlistProblemText, wantedText } from '../../../lib/waitlist';
import { DEFAULT_TIME_ZONE } from '../../../lib/wall-clock';
import { useMe } from '../../accounts/api/get-me';
import { useDeclineWaitlistOffer } from '../../bookings/api/decline-waitlist-offer';
import { useMyWaitlist } from '../../bookings/api/get-my-waitlist';
import { getPaymentConfigQueryOptions } from '../../bookings/api/get-payment-config';
import { useJoinWaitlist } from '../../bookings/api/join-waitlist';
import { useLeaveWaitlist } from '../../bookings/api/leave-waitlist';

const QUANTITIES = Array.from(
  { length: MAX_TICKETS_PER_BOOKING - MIN_TICKETS_PER_BOOKING + 1 },
  (_, index) => MIN_TICKETS_PER_BOOKING + index,
);

/** The panel's place while its chunk or the user's waitlist loads. */
export function WaitlistPanelSkeleton() {
  return <Skeleton className="h-40 w-full" />;
}

/**
 * The waitlist of a sold-out event, under its price on the event's page (its own chunk: only sold-out pages load
 * it). A visitor is sent to sign in and back; a user joins with the tickets they want, sees their place and may
 * leave; tickets offered to them are paid on the payment page or declined. It stays once shown: tickets that came
 * back may be the user's offer (the event page keeps it mounted), and it then says so even with tickets on sale.
 */
export function WaitlistPanel({ event, onTicketsBack }: { event: EventDto; onTicketsBack: () => void }) {
  const { data: me, isPending } = useMe();
  if (isPending) return <WaitlistPanelSkeleton />;
  if (!me) return event.ticketsAvailable === 0 ? <VisitorPanel eventId={event.id} /> : null;
  return <UserPanel event={event} onTicketsBack={onTicketsBack} />;
}

function PanelFrame({
  headingRef,
  sectionRef,
  children,
}: {
  headingRef?: Ref<HTMLHeadingElement>;
  sectionRef?: Ref<HTMLElement>;
  children: ReactNode;
}) {
  const { t } = useI18n();
  const headingId = useId();
  return (
    <section ref={sectionRef} aria-labelledby={headingId} className="flex flex-col gap-3 border-t border-border pt-4">
      {/* Focusable by script: after joining, leaving or declining, the focus comes back here. */}
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="text-lg font-bold focus:outline-none">
        {t('waitlist.title')}
      </h3>
      {children}
    </section>
  );
}

function VisitorPanel({ eventId }: { eventId: string }) {
  const { t } = useI18n();
  // As the guards send a visitor from the ticket page: to sign in, then back here.
  const login = `/login?redirect=${encodeURIComponent(`/event-details/${eventId}`)}`;
  return (
    <PanelFrame>
      <p className="text-sm text-fg-muted">{t('waitlist.intro')}</p>
      <ButtonLink to={login} className="w-full">
        {t('waitlist.join')}
      </ButtonLink>
    </PanelFrame>
  );
}

function UserPanel({ event, onTicketsBack }: { event: EventDto; onTicketsBack: () => void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const list = useMyWaitlist();
  const item = list.data?.items.find((entry) => entry.eventId === event.id);
  const heading = useRef<HTMLHeadingElement>(null);
  const focusHeading = () => heading.current;

  // Tickets that come back are offered in the same statement: whatever the live stream says changed about the
  // event (its count, its version), the user's entry may have changed too.
  const refetchList = list.refetch;
  const live = item?.status === 'waiting' || item?.status === 'offered';
  const seen = useRef({ available: event.ticketsAvailable, version: event.version });
  useEffect(() => {
    const before = seen.current;
    seen.current = { available: event.ticketsAvailable, version: event.version };
    if (before.available === event.ticketsAvailable && before.version === event.version) return;
    if (live) void refetchList();
  }, [event.ticketsAvailable, event.version, live, refetchList]);

  const offer = item?.status === 'offered' ? item.offer : undefined;
  // The app's time zone, for until when an offer holds (asked only once there is one).
  const config = useQuery({ ...getPaymentConfigQueryOptions(), enabled: offer !== undefined });
  const section = useRef<HTMLElement>(null);
  const hidden = list.data !== undefined && event.ticketsAvailable > 0 && item?.status !== 'offered';
  // Read while the panel is still on the page, just before it goes.
  const focusWasHere = hidden && section.current?.contains(document.activeElement) === true;
  useEffect(() => {
    if (focusWasHere) onTicketsBack();
  }, [focusWasHere, onTicketsBack]);

  if (list.isError && !list.data) {
    return (
      <PanelFrame headingRef={heading}>
        <p role="alert" className="text-sm text-fg-muted">
          {t('waitlist.loadFailed')}
        </p>
        <Button
          variant="secondary"
          size="sm"
          className="self-start"
          aria-busy={list.isFetching || undefined}
          onClick={() => void list.refetch()}
        >
          {list.isFetching ? <Spinner label={null} /> : null}
          {t('common.tryAgain')}
        </Button>
      </PanelFrame>
    );
  }
  if (!list.data) return <WaitlistPanelSkeleton />;
  // Tickets on sale and nothing held for this user: 'Get ticket' above is the way now (and takes the focus if
  // the panel had it, as after declining the last tickets held).
  if (hidden) return null;

  return (
    <PanelFrame headingRef={heading} sectionRef={section}>
      {/* Said when it changes: a place moving up, tickets offered while the page is open, an offer ended. */}
      <div aria-live="polite" className="flex flex-col gap-1">
        {item?.status === 'waiting' ? (
          <>
            <p className="font-semibold">
              {item.position === null ? t('waitlist.waiting') : t('waitlist.position', { position: item.position })}
            </p>
            <p className="text-sm text-fg-muted">{wantedText(i18n, item)}</p>
          </>
        ) : offer ? (
          <>
            <p className="font-semibold text-accent">{t('waitlist.offerTitle')}</p>
            <p className="text-sm">{offerText(i18n, offer, config.data?.timeZone ?? DEFAULT_TIME_ZONE)}</p>
          </>
        ) : item?.status === 'expired' ? (
          <p className="text-sm">{t('waitlist.offerExpired')}</p>
        ) : item?.status === 'declined' ? (
          <p className="text-sm">{t('waitlist.offerDeclined')}</p>
        ) : (
          <p className="text-sm text-fg-muted">{t('waitlist.intro')}</p>
        )}
      </div>
      {item?.status === 'waiting' ? (
        <LeaveWaitlist eventId={event.id} onLeft={focusHeading} />
      ) : item && offer ? (
        <DeclineOrPay item={item} offer={offer} returnFocus={focusHeading} />
      ) : (
        <JoinForm
          event={event}
          // Under a line that an offer ended; otherwise the status above is this intro.
          intro={item !== undefined}
          onJoined={() => heading.current?.focus()}
          onTicketsBack={onTicketsBack}
        />
      )}
    </PanelFrame>
  );
}

function LeaveWaitlist({ eventId, onLeft }: { eventId: string; onLeft: () => HTMLElement | null }) {
  const i18n = useI18n();
  const { t } = i18n;
  const leave = useLeaveWaitlist(eventId);
  const [error, setError] = useState<string | null>(null);

  async function onLeave() {
    if (leave.isPending) return;
    setError(null);
    try {
      await leave.mutateAsync();
      toast.success(t('waitlist.left'));
      onLeft()?.focus();
    } catch (failure) {
      if (isSessionEnded(failure)) return;
      setError(waitlistProblemText(failure, i18n));
    }
  }

  return (
    <>
      <p className="text-sm text-fg-muted">{t('waitlist.intro')}</p>
      {/* aria-disabled while the request runs: a disabled button would drop the keyboard's focus. */}
      <Button
        variant="secondary"
        className="w-full aria-disabled:cursor-not-allowed aria-disabled:opacity-60"
        aria-disabled={leave.isPending || undefined}
        aria-busy={leave.isPending || undefined}
        onClick={() => void onLeave()}
      >
        {leave.isPending ? <Spinner label={null} /> : null}
        {leave.isPending ? t('waitlist.leaving') : t('waitlist.leave')}
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </>
  );
}

function DeclineOrPay({
  item,
  offer,
  returnFocus,
}: {
  item: WaitlistItem;
  offer: NonNullable<WaitlistItem['offer']>;
  returnFocus: () => HTMLElement | null;
}) {
  const decline = useDeclineWaitlistOffer(item);
  return (
    <WaitlistOfferActions
      item={item}
      offer={offer}
      decline={() => decline.mutateAsync()}
      declining={decline.isPending}
      returnFocus={returnFocus}
    />
  );
}

function JoinForm({
  event,
  intro,
  onJoined,
  onTicketsBack,
}: {
  event: EventDto;
  intro: boolean;
  onJoined: () => void;
  onTicketsBack: () => void;
}) {
  const i18n = useI18n();
  const { t, number } = i18n;
  const join = useJoinWaitlist(event.id);
  const [quantity, setQuantity] = useState(MIN_TICKETS_PER_BOOKING);
  const [acceptFewer, setAcceptFewer] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [closed, setClosed] = useState(false);
  const fewerId = useId();

  async function onSubmit(submitted: FormEvent<HTMLFormElement>) {
    submitted.preventDefault();
    if (join.isPending) return;
    setError(null);
    try {
      await join.mutateAsync({ quantity, acceptFewer });
      onJoined();
    } catch (failure) {
      if (isSessionEnded(failure)) return;
      if (failure instanceof ApiError && failure.code === 'TICKETS_AVAILABLE') {
        // The event is being read again: 'Get ticket' comes back in place of the sold-out button.
        toast.info(t('waitlist.ticketsAvailable'));
        onTicketsBack();
        return;
      }
      if (failure instanceof ApiError && failure.code === 'EVENT_CLOSED') setClosed(true);
      setError(waitlistProblemText(failure, i18n));
    }
  }

  const problem = error ? (
    <p role="alert" className="text-sm text-danger">
      {error}
    </p>
  ) : null;
  if (closed) return problem;
  return (
    <form onSubmit={(submitted) => void onSubmit(submitted)} className="flex flex-col gap-3">
      {intro ? <p className="text-sm text-fg-muted">{t('waitlist.intro')}</p> : null}
      <SelectField
        label={t('waitlist.quantity')}
        value={quantity}
        disabled={join.isPending}
        onChange={(changed) => {
          setError(null);
          setQuantity(Number(changed.target.value));
        }}
      >
        {QUANTITIES.map((count) => (
          <option key={count} value={count}>
            {number(count)}
          </option>
        ))}
      </SelectField>
      <div className="flex items-start gap-3">
        <input
          id={`${fewerId}-box`}
          type="checkbox"
          checked={acceptFewer}
          disabled={join.isPending}
          aria-describedby={`${fewerId}-hint`}
          onChange={(changed) => setAcceptFewer(changed.target.checked)}
          className="mt-0.5 size-5 shrink-0 accent-accent disabled:opacity-50"
        />
        <div className="flex flex-col gap-0.5">
          <label htmlFor={`${fewerId}-box`} className="text-sm font-medium">
            {t('waitlist.acceptFewer')}
          </label>
          <p id={`${fewerId}-hint`} className="text-xs text-fg-muted">
            {t('waitlist.acceptFewerHint')}
          </p>
        </div>
      </div>
      <Button
        type="submit"
        className="w-full aria-disabled:cursor-not-allowed aria-disabled:opacity-60"
        aria-disabled={join.isPending || undefined}
        aria-busy={join.isPending || undefined}
      >
        {join.isPending ? <Spinner label={null} /> : null}
        {join.isPending ? t('waitlist.joining') : t('waitlist.join')}
      </Button>
      {problem}
    </form>
  );
}
