import { paymentMessages } from '../../../../../contracts/messages/payment';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { OutcomeBadge } from '../../../components/ui/outcome-badge';

/** What the payment success and payment failure pages show. */
export function PaymentOutcome({ outcome, eventId }: { outcome: 'success' | 'failure'; eventId: string | undefined }) {
  const success = outcome === 'success';
  const eventLink = eventId ? `/event-details/${eventId}` : '/events-page/all';
  return (
    <Card className="mx-auto flex max-w-lg flex-col items-center gap-4 px-6 py-10 text-center">
      <OutcomeBadge kind={outcome} />
      <h1 className="text-2xl font-bold">{success ? paymentMessages.successTitle : paymentMessages.failureTitle}</h1>
      <p className="text-fg-muted">{success ? paymentMessages.successText : paymentMessages.failureText}</p>
      <div className="mt-2 flex flex-wrap justify-center gap-3">
        {success ? <ButtonLink to="/profile">{paymentMessages.viewMyTickets}</ButtonLink> : null}
        <ButtonLink to={eventLink} variant={success ? 'secondary' : 'primary'}>
          {paymentMessages.backToEvent}
        </ButtonLink>
      </div>
    </Card>
  );
}
