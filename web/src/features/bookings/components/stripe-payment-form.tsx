import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useI18n } from '../../../lib/i18n';

/**
 * Stripe's Payment Element. This module (and Stripe's SDK) is loaded only when the server says Stripe
 * is in use, so it stays out of the main bundle.
 */
const stripePromises = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string) {
  let promise = stripePromises.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey);
    stripePromises.set(publishableKey, promise);
  }
  return promise;
}

function Form({ bookingId, totalPiasters }: { bookingId: string; totalPiasters: number }) {
  const { t, price } = useI18n();
  const stripe = useStripe();
  const elements = useElements();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setPending(true);
    setError(null);
    const result = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: `${window.location.origin}/payment-success?booking=${bookingId}` },
    });
    // Only reached when the payment could not be confirmed (otherwise Stripe redirects to return_url). Stripe's
    // own words, in the page's language (the Elements' locale).
    setError(result.error?.message ?? t('payment.unexpectedState'));
    setPending(false);
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <PaymentElement />
      <Button type="submit" size="lg" disabled={!stripe || pending}>
        {pending ? t('payment.processing') : t('payment.pay', { total: price(totalPiasters) })}
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </form>
  );
}

export function StripePaymentForm({
  publishableKey,
  clientSecret,
  bookingId,
  totalPiasters,
}: {
  publishableKey: string;
  clientSecret: string;
  bookingId: string;
  totalPiasters: number;
}) {
  const { lang } = useI18n();
  return (
    <Elements
      stripe={stripeFor(publishableKey)}
      // Stripe writes its form, and its messages (a declined card…), in the page's language.
      options={{ clientSecret, locale: lang, appearance: { theme: 'night', variables: { colorPrimary: '#14b8a6' } } }}
    >
      <Form bookingId={bookingId} totalPiasters={totalPiasters} />
    </Elements>
  );
}
