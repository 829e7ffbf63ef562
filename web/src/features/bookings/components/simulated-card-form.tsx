import { type FormEvent, useEffect, useRef, useState } from 'react';
import { CARD_ERROR_MESSAGES, isCardErrorCode, parseCardExpiry, TEST_CARDS } from '../../../../../contracts/bookings';
import type { I18n } from '../../../../../contracts/i18n/i18n';
import { messageText } from '../../../../../contracts/i18n/text';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { withElements } from '../../../lib/rich-text';
import { useConfirmSimulatedPayment } from '../api/confirm-simulated-payment';

function groupCardNumber(value: string): string {
  return value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

type CardField = 'number' | 'expiry' | 'cvc';

/** Fewer digits than any card number has: said at once, without asking the server. */
const MIN_CARD_DIGITS = 12;

/**
 * The field a refusal is about, from its problem code (the processor's, as Stripe's) or the field a validation
 * error names; declines are about the card itself.
 */
function fieldOf(err: ApiError): CardField {
  if (err.code === 'invalid_expiry' || err.code === 'expired_card') return 'expiry';
  if (err.code === 'incorrect_cvc' || err.code === 'incomplete_cvc') return 'cvc';
  if (err.code === 'VALIDATION_FAILED') {
    const field = Object.keys(err.errors)[0];
    if (field === 'expMonth' || field === 'expYear') return 'expiry';
    if (field === 'cvc') return 'cvc';
  }
  return 'number';
}

/**
 * What the buyer reads of a refusal: a card's by its code (in the page's language, whatever words the processor
 * used), a field's check as the server gave it (a message key, or words already in the request's language).
 */
function refusalText(err: ApiError, i18n: I18n): string {
  if (isCardErrorCode(err.code)) return i18n.t(CARD_ERROR_MESSAGES[err.code]);
  const fieldMessage = Object.values(err.errors)[0];
  return messageText(i18n, err.code === 'VALIDATION_FAILED' && fieldMessage ? fieldMessage : err.message);
}

/** The simulated processor's card form: the server decides, like Stripe's test mode. */
export function SimulatedCardForm({
  bookingId,
  totalPiasters,
  onPaid,
  onProcessingChange,
}: {
  bookingId: string;
  totalPiasters: number;
  onPaid: () => void;
  /** Told when a payment starts being sent and when its answer has come. */
  onProcessingChange?: (processing: boolean) => void;
}) {
  const i18n = useI18n();
  const { t, price } = i18n;
  const [cardNumber, setCardNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [error, setError] = useState<{ message: string; field: CardField } | null>(null);
  const confirm = useConfirmSimulatedPayment();
  const processing = confirm.isPending;
  useEffect(() => onProcessingChange?.(processing), [processing, onProcessingChange]);
  const fields = {
    number: useRef<HTMLInputElement>(null),
    expiry: useRef<HTMLInputElement>(null),
    cvc: useRef<HTMLInputElement>(null),
  };
  const alertId = 'card-form-error';

  /** Shows the message, marks the field it is about and puts the focus there (the button was disabled meanwhile). */
  function fail(message: string, field: CardField) {
    setError({ message, field });
    fields[field].current?.focus();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    // The card number first, as it comes first in the form (and in Stripe's own checks).
    if (cardNumber.replace(/\D/g, '').length < MIN_CARD_DIGITS) return fail(t('payment.incompleteNumber'), 'number');
    const parsed = parseCardExpiry(expiry);
    if (!parsed) return fail(t('payment.invalidExpiry'), 'expiry');
    try {
      await confirm.mutateAsync({
        bookingId,
        cardNumber: cardNumber.replace(/\s/g, ''),
        expMonth: parsed.month,
        expYear: parsed.year,
        cvc,
      });
      onPaid();
    } catch (err) {
      if (err instanceof ApiError) fail(refusalText(err, i18n), fieldOf(err));
      else fail(t('payment.unexpectedState'), 'number');
    }
  }

  /** What a field needs while an error is about it: announced by the alert below the button. */
  const invalid = (field: CardField) =>
    error?.field === field ? { 'aria-invalid': true, 'aria-describedby': alertId } : {};

  // While the card is being processed the fields are read-only: what is charged is what they show.
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <TextField
        label={t('payment.cardNumber')}
        name="cardnumber"
        dir="ltr"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        value={cardNumber}
        onChange={(e) => setCardNumber(groupCardNumber(e.target.value))}
        required
        readOnly={confirm.isPending}
        ref={fields.number}
        {...invalid('number')}
      />
      <div className="grid grid-cols-2 gap-4">
        <TextField
          label={t('payment.expiryDate')}
          name="exp-date"
          dir="ltr"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder={t('payment.expiryPlaceholder')}
          value={expiry}
          onChange={(e) => setExpiry(formatExpiry(e.target.value))}
          required
          readOnly={confirm.isPending}
          ref={fields.expiry}
          {...invalid('expiry')}
        />
        <TextField
          label={t('payment.cvc')}
          name="cvc"
          dir="ltr"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          maxLength={4}
          value={cvc}
          onChange={(e) => setCvc(e.target.value.replace(/\D/g, '').slice(0, 4))}
          required
          readOnly={confirm.isPending}
          ref={fields.cvc}
          {...invalid('cvc')}
        />
      </div>
      <Button type="submit" size="lg" disabled={confirm.isPending}>
        {confirm.isPending ? t('payment.processing') : t('payment.pay', { total: price(totalPiasters) })}
      </Button>
      {error ? (
        <p id={alertId} role="alert" className="text-sm text-danger">
          {error.message}
        </p>
      ) : null}
      <p className="text-xs text-fg-muted">
        {withElements(t('payment.testModeHint'), {
          success: <TestCard digits={TEST_CARDS.success} />,
          declined: <TestCard digits={TEST_CARDS.declined} />,
          insufficient: <TestCard digits={TEST_CARDS.insufficientFunds} />,
        })}
      </p>
    </form>
  );
}

/** A test card's number as printed on the card, in groups of four digits, left to right in any language. */
function TestCard({ digits }: { digits: string }) {
  return (
    <bdi dir="ltr" className="whitespace-nowrap">
      {digits.replace(/(\d{4})(?=\d)/g, '$1 ')}
    </bdi>
  );
}
