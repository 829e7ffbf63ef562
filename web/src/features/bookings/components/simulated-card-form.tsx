import { type FormEvent, useState } from 'react';
import { parseCardExpiry } from '../../../../../contracts/bookings';
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

/** The simulated processor's card form: the server decides, like Stripe's test mode. */
export function SimulatedCardForm({
  bookingId,
  totalPiasters,
  onPaid,
}: {
  bookingId: string;
  totalPiasters: number;
  onPaid: () => void;
}) {
  const [cardNumber, setCardNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [error, setError] = useState<string | null>(null);
  const confirm = useConfirmSimulatedPayment();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const parsed = parseCardExpiry(expiry);
    if (!parsed) {
      setError(paymentMessages.invalidExpiry);
      return;
    }
    try {
      await confirm.mutateAsync({
        bookingId,
        cardNumber: cardNumber.replace(/\s/g, '') || '0',
        expMonth: parsed.month,
        expYear: parsed.year,
        cvc,
      });
      onPaid();
    } catch (err) {
      if (err instanceof ApiError) {
        const fieldMessage = Object.values(err.errors)[0];
        setError(err.code === 'VALIDATION_FAILED' && fieldMessage ? fieldMessage : err.message);
      } else setError(paymentMessages.unexpectedState);
    }
  }

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
        />
      </div>
      <Button type="submit" size="lg" disabled={confirm.isPending}>
        {confirm.isPending
          ? paymentMessages.processing
          : paymentMessages.pay.replace('{total}', formatPiasters(totalPiasters))}
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <p className="text-xs text-fg-muted">
        Test mode: no money moves. Use 4242 4242 4242 4242 with any future date and any CVC.
      </p>
    </form>
  );
}
