import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { OutcomeBadge } from '../../../components/ui/outcome-badge';
import { useI18n } from '../../../lib/i18n';

/** What the payment success and payment failure pages show. */
export function PaymentOutcome({ outcome, eventId }: { outcome: 'success' | 'failure'; eventId: string | undefined }) {
  const { t } = useI18n();
  const success = outcome === 'success';
  const eventLink = eventId ? `/event-details/${eventId}` : '/events-page/all';
  return (
    <Card className="mx-auto flex max-w-lg flex-col items-center gap-4 px-6 py-10 text-center">
      <OutcomeBadge kind={outcome} />
      <h1 className="text-2xl font-bold">{success ? t('payment.successTitle') : t('payment.failureTitle')}</h1>
      <p className="text-fg-muted">{success ? t('payment.successText') : t('payment.failureText')}</p>
      <div className="mt-2 flex flex-wrap justify-center gap-3">
        {success ? <ButtonLink to="/profile">{t('payment.viewMyTickets')}</ButtonLink> : null}
        <ButtonLink to={eventLink} variant={success ? 'secondary' : 'primary'}>
          {t('payment.backToEvent')}
        </ButtonLink>
      </div>
    </Card>
  );
}
