import { useRef, useState } from 'react';
import { toast } from 'sonner';
import type { WaitlistItem } from '../../../contracts/waitlist';
import { isSessionEnded } from '../lib/api-client';
import { useI18n } from '../lib/i18n';
import { withElements } from '../lib/rich-text';
import { waitlistProblemText } from '../lib/waitlist';
import { Button, ButtonLink } from './ui/button';
import { ConfirmActions } from './ui/confirm-actions';
import { Dialog } from './ui/dialog';

/**
 * What a waitlisted user can do with the tickets held for them (an entry 'offered'), on the event's page and on
 * Your Tickets: 'Pay now' (the offer is an ordinary hold, paid on the payment page) and 'Decline', which asks
 * first. The caller says how many and until when (offerText), and its feature sends the decline (`decline`):
 * shared components do not reach into a feature.
 */
export function WaitlistOfferActions({
  item,
  offer,
  decline,
  declining,
  describedBy,
  returnFocus,
}: {
  item: Pick<WaitlistItem, 'title'>;
  offer: Pick<NonNullable<WaitlistItem['offer']>, 'bookingId'>;
  decline: () => Promise<unknown>;
  declining: boolean;
  /** The id of the event's title where several offers are listed: each button then says whose it is. */
  describedBy?: string;
  /** Where the focus goes once the offer is declined (its buttons are gone by then). */
  returnFocus: () => HTMLElement | null;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const opener = useRef<HTMLButtonElement>(null);

  async function confirm() {
    if (declining) return;
    setError(null);
    try {
      await decline();
      toast.success(t('waitlist.declined'));
      setOpen(false);
      // The offer's buttons go once its list has been read again: then the focus goes where the caller says.
      setTimeout(() => returnFocus()?.focus(), 0);
    } catch (failure) {
      if (isSessionEnded(failure)) return;
      setError(waitlistProblemText(failure, i18n));
    }
  }

  return (
    <>
      <div className="flex flex-wrap gap-3">
        <ButtonLink to={`/payment?booking=${offer.bookingId}`} aria-describedby={describedBy} className="grow">
          {t('waitlist.payNow')}
        </ButtonLink>
        <Button
          ref={opener}
          variant="secondary"
          aria-describedby={describedBy}
          className="grow"
          onClick={() => {
            setError(null);
            setOpen(true);
          }}
        >
          {t('waitlist.decline')}
        </Button>
      </div>
      {open ? (
        <Dialog
          open
          onClose={() => {
            if (!declining) setOpen(false);
          }}
          title={t('waitlist.declineTitle')}
          description={withElements(t('waitlist.declineIntro'), { title: <bdi>{item.title}</bdi> })}
          returnFocus={() => (opener.current?.isConnected ? null : returnFocus())}
        >
          <ConfirmActions
            error={error}
            keepLabel={t('waitlist.keepOffer')}
            onKeep={() => setOpen(false)}
            confirmLabel={declining ? t('waitlist.declining') : t('waitlist.confirmDecline')}
            onConfirm={() => void confirm()}
            pending={declining}
          />
        </Dialog>
      ) : null}
    </>
  );
}
