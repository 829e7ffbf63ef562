import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { egyptianMobileSchema, type PaymentMethodName } from '../../../../../contracts/bookings';
import { messageText } from '../../../../../contracts/i18n/text';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, isSessionEnded } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { useStartPaymobPayment } from '../api/start-paymob-payment';
import { localMobile } from '../lib/phone';

/**
 * Paying with Paymob: the mobile number Paymob needs (the one kept from last time, offered again), then its hosted
 * checkout for a card or a wallet, or a bill reference for kiosk cash (`onCashReference`: the booking already
 * shows it). The server's refusals are shown as it wrote them, in the page's language.
 */
export function PaymobForm({
  bookingId,
  method,
  savedPhone,
  onCashReference,
  onProcessingChange,
}: {
  bookingId: string;
  method: PaymentMethodName;
  /** The number the buyer gave Paymob last time (+201XXXXXXXXX), if any. */
  savedPhone: string | null | undefined;
  onCashReference: () => void;
  /** Told when a payment starts being sent (or the browser leaves for Paymob) and when that is over. */
  onProcessingChange?: (processing: boolean) => void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const [phone, setPhone] = useState(() => localMobile(savedPhone));
  const [phoneError, setPhoneError] = useState<string | null>(null);
  // Said of one method: choosing another clears it.
  const [error, setError] = useState<{ method: PaymentMethodName; message: string } | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const start = useStartPaymobPayment();
  const busy = start.isPending || redirecting;
  useEffect(() => onProcessingChange?.(busy), [busy, onProcessingChange]);
  // Gone with a request's answer (the kiosk reference replaces the form): nothing is being sent any more.
  useEffect(() => () => onProcessingChange?.(false), [onProcessingChange]);
  // Back from Paymob's checkout with the browser's Back button, the page may come back as it was left.
  useEffect(() => {
    const shown = (event: PageTransitionEvent) => {
      if (event.persisted) setRedirecting(false);
    };
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, []);
  const phoneInput = useRef<HTMLInputElement>(null);
  const phoneId = useId();
  const hintId = `${phoneId}-hint`;

  function failPhone(message: string) {
    setPhoneError(message);
    phoneInput.current?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setPhoneError(null);
    const typed = phone.trim();
    // Said at once, without asking the server (which checks the same).
    if (!typed) return failPhone(t('payment.phoneRequired'));
    if (!egyptianMobileSchema.safeParse(typed).success) return failPhone(t('payment.phoneInvalid'));
    try {
      const answer = await start.mutateAsync({ bookingId, method, phone: typed });
      if ('checkoutUrl' in answer) {
        setRedirecting(true);
        window.location.assign(answer.checkoutUrl);
      } else {
        onCashReference();
      }
    } catch (err) {
      // A session that ended is the app's to handle.
      if (isSessionEnded(err)) return;
      if (err instanceof ApiError && err.code === 'VALIDATION_FAILED' && err.errors.phone) {
        return failPhone(err.errors.phone);
      }
      const message = err instanceof ApiError ? messageText(i18n, err.message) : t('payment.unexpectedState');
      setError({ method, message });
    }
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <TextField
        ref={phoneInput}
        id={phoneId}
        label={t('payment.phone')}
        name="phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        dir="ltr"
        placeholder="01012345678"
        value={phone}
        onChange={(e) => setPhone(e.target.value)}
        required
        readOnly={busy}
        error={phoneError ?? undefined}
        aria-describedby={phoneError ? `${hintId} ${phoneId}-error` : hintId}
        hint={
          <p id={hintId} className="text-xs text-fg-muted">
            {t('payment.phoneHint')}
          </p>
        }
      />
      <Button type="submit" size="lg" disabled={busy}>
        {redirecting ? (
          <>
            <Spinner label={null} />
            {t('payment.redirecting')}
          </>
        ) : start.isPending ? (
          t('payment.processing')
        ) : method === 'cash' ? (
          t('payment.getCashReference')
        ) : (
          t('payment.continueToPaymob')
        )}
      </Button>
      {/* Always there, so that its words are announced when they come. */}
      <p role="status" className="sr-only">
        {redirecting ? t('payment.redirecting') : ''}
      </p>
      {error?.method === method ? (
        <p role="alert" className="text-sm text-danger">
          {error.message}
        </p>
      ) : null}
    </form>
  );
}
