import { type Ref, useId } from 'react';
import type { PaymentChoice } from '../../../../../contracts/bookings';
import { useI18n } from '../../../lib/i18n';
import { choiceId, choiceLabelKey, sameChoice } from '../lib/payment-choices';

/**
 * The ways to pay offered, as one radio group: the arrow keys move between them, and the chosen one's form shows
 * under the group. Disabled while a payment is being sent, so what is sent is what is chosen.
 */
export function PaymentMethodPicker({
  choices,
  value,
  onChange,
  disabled = false,
  ref,
}: {
  choices: readonly PaymentChoice[];
  value: PaymentChoice;
  onChange: (choice: PaymentChoice) => void;
  disabled?: boolean;
  ref?: Ref<HTMLFieldSetElement>;
}) {
  const { t } = useI18n();
  const name = useId();
  return (
    <fieldset ref={ref} disabled={disabled} className="flex min-w-0 flex-col gap-3">
      <legend className="mb-3 text-base font-semibold">{t('payment.chooseMethod')}</legend>
      {choices.map((choice) => {
        const id = choiceId(choice);
        return (
          <label
            key={id}
            className="flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border border-border bg-surface px-4 py-3 transition-colors hover:border-accent/60 has-checked:border-accent has-checked:bg-accent/10 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-accent has-disabled:cursor-not-allowed has-disabled:opacity-60"
          >
            <input
              type="radio"
              name={name}
              value={id}
              checked={sameChoice(choice, value)}
              onChange={() => onChange(choice)}
              className="size-5 shrink-0 accent-accent focus-visible:outline-none"
            />
            <MethodIcon method={choice.method} />
            <span className="min-w-0 text-sm font-medium">{t(choiceLabelKey(choice))}</span>
          </label>
        );
      })}
    </fieldset>
  );
}

/** A card, a phone (mobile wallets) or a banknote: the method at a glance (its label says it in words). */
function MethodIcon({ method }: { method: PaymentChoice['method'] }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-6 shrink-0 text-fg-muted"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {method === 'card' ? (
        <>
          <rect x="3" y="5.5" width="18" height="13" rx="2" />
          <path d="M3 10h18M7 15h3" />
        </>
      ) : method === 'wallet' ? (
        <>
          <rect x="5.5" y="2.5" width="13" height="19" rx="2.5" />
          <path d="M10.5 18.5h3" />
        </>
      ) : (
        <>
          <rect x="2.5" y="6.5" width="19" height="11" rx="1.5" />
          <circle cx="12" cy="12" r="2.5" />
          <path d="M6 9.5v5M18 9.5v5" />
        </>
      )}
    </svg>
  );
}
