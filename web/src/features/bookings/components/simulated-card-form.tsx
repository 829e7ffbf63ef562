import { type FormEvent, useEffect, useRef, useState } from 'react';
import { parseCardExpiry, TEST_CARDS } from '../../../../../contracts/bookings';
import { formatPiasters } from '../../../../../contracts/dates';
import { paymentMessages } from '../../../../../contracts/messages/payment';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
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
    if (cardNumber.replace(/\D/g, '').length < MIN_CARD_DIGITS) return fail(paymentMessages.incompleteNumber, 'number');
    const parsed = parseCardExpiry(expiry);
    if (!parsed) return fail(paymentMessages.invalidExpiry, 'expiry');
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
      if (err instanceof ApiError) {
        const fieldMessage = Object.values(err.errors)[0];
        fail(err.code === 'VALIDATION_FAILED' && fieldMessage ? fieldMessage : err.message, fieldOf(err));
      } else fail(paymentMessages.unexpectedState, 'number');
    }
  }

  /** What a field needs while an error is about it: announced by the alert below the button. */
  const invalid = (field: CardField) =>
    error?.field === field ? { 'aria-invalid': true, 'aria-describedby': alertId } : {};

  // While the card is being processed the fields are read-only: what is charged is what they show.
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <TextField
        label={paymentMessages.cardNumber}
        name="cardnumber"
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
          label={paymentMessages.expiryDate}
          name="exp-date"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM / YY"
          value={expiry}
          onChange={(e) => setExpiry(formatExpiry(e.target.value))}
          required
          readOnly={confirm.isPending}
          ref={fields.expiry}
          {...invalid('expiry')}
        />
        <TextField
          label={paymentMessages.cvc}
          name="cvc"
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
        {confirm.isPending
          ? paymentMessages.processing
          : paymentMessages.pay.replace('{total}', formatPiasters(totalPiasters))}
      </Button>
      {error ? (
        <p id={alertId} role="alert" className="text-sm text-danger">
          {error.message}
        </p>
      ) : null}
      <p className="text-xs text-fg-muted">
        Test mode: no money moves. {groupDigits(TEST_CARDS.success)} pays; {groupDigits(TEST_CARDS.declined)} is
        declined and {groupDigits(TEST_CARDS.insufficientFunds)} has insufficient funds. Any future date and any CVC.
      </p>
    </form>
  );
}

/** A card number as printed on the card: groups of four digits. */
function groupDigits(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}
