import { MIN_TICKETS_PER_BOOKING } from '../../../../../contracts/constants';
import { useI18n } from '../../../lib/i18n';

/** A minus/plus control with a minimum of 1; the caller decides what is too many. */
export function QuantityStepper({
  value,
  onChange,
  max,
  stopAtMax = false,
  label,
}: {
  value: number;
  onChange: (next: number) => void;
  /** The plus button stops one above this so that the limit can be seen (or at it, with `stopAtMax`). */
  max: number;
  /** A hard limit, nothing above it to explain: the tickets of a booking that can be cancelled. */
  stopAtMax?: boolean;
  /** What the number counts (read with it); 'Quantity' by default. */
  label?: string;
}) {
  const { t, number } = useI18n();
  // aria-disabled, not disabled: a button that disables itself under the keyboard's focus would drop the focus
  // to the page, and the next Tab would start again from the top.
  const button =
    'grid size-11 place-items-center rounded-full border border-border bg-surface text-xl font-semibold hover:bg-surface-overlay aria-disabled:cursor-not-allowed aria-disabled:opacity-40 aria-disabled:hover:bg-surface focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent';
  const atMin = value <= MIN_TICKETS_PER_BOOKING;
  const atMax = stopAtMax ? value >= max : value > max;
  return (
    <div className="flex items-center gap-4">
      <button
        type="button"
        className={button}
        aria-label={t('payment.decreaseQuantity')}
        aria-disabled={atMin || undefined}
        onClick={() => {
          if (!atMin) onChange(Math.max(MIN_TICKETS_PER_BOOKING, value - 1));
        }}
      >
        <span aria-hidden="true">−</span>
      </button>
      <output
        aria-live="polite"
        aria-label={label ?? t('payment.quantity')}
        className="min-w-8 text-center text-2xl font-bold tabular-nums"
      >
        {number(value)}
      </output>
      <button
        type="button"
        className={button}
        aria-label={t('payment.increaseQuantity')}
        aria-disabled={atMax || undefined}
        onClick={() => {
          if (!atMax) onChange(value + 1);
        }}
      >
        <span aria-hidden="true">+</span>
      </button>
    </div>
  );
}
