import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useI18n } from '../../../lib/i18n';
import { deadlineParams } from '../../../lib/wall-clock';

/** How long the copy button says the number was copied. */
const COPIED_MS = 2_500;

/**
 * A booking waiting for its kiosk cash: what to pay, the bill reference to give at an Aman or Masary outlet (large,
 * left to right, copyable), by when, and how. `focusOnShow`: the reference has just been given, so the focus
 * moves here and a screen reader reads it.
 */
export function CashPayment({
  reference,
  totalPiasters,
  expiresAt,
  timeZone,
  focusOnShow = false,
  onChooseAnother,
}: {
  reference: string;
  totalPiasters: number;
  /** The payment deadline (ISO). */
  expiresAt: string;
  /** The app's time zone, the deadline's. */
  timeZone: string;
  focusOnShow?: boolean;
  /** Offered when other ways to pay are. */
  onChooseAnother?: () => void;
}) {
  const i18n = useI18n();
  const { t, price } = i18n;
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const number = useRef<HTMLSpanElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (focusOnShow) heading.current?.focus();
  }, [focusOnShow]);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(reference);
      setCopied(true);
    } catch {
      // No clipboard here (an insecure page, a refused permission): the number is selected, ready to copy by hand.
      const selection = window.getSelection();
      if (number.current && selection) selection.selectAllChildren(number.current);
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-xl border border-accent/40 bg-accent/5 p-4 sm:p-5"
    >
      <h2 ref={heading} id={headingId} tabIndex={-1} className="text-lg font-bold focus:outline-none">
        {t('payment.cashTitle', { total: price(totalPiasters) })}
      </h2>
      <dl className="flex flex-col gap-2">
        <dt className="text-sm text-fg-muted">{t('payment.cashReference')}</dt>
        <dd className="flex flex-wrap items-center gap-3">
          <span
            ref={number}
            dir="ltr"
            data-testid="cash-reference"
            className="min-w-0 font-mono text-3xl font-bold tracking-widest break-all text-fg select-all sm:text-4xl"
          >
            {reference}
          </span>
          <Button variant="secondary" onClick={() => void copy()}>
            {copied ? t('payment.referenceCopied') : t('payment.copyReference')}
          </Button>
          <span role="status" className="sr-only">
            {copied ? t('payment.referenceCopied') : ''}
          </span>
        </dd>
      </dl>
      <p className="font-medium">{t('payment.cashDeadline', deadlineParams(i18n, expiresAt, timeZone))}</p>
      <p className="text-sm text-fg-muted">{t('payment.cashHowTo')}</p>
      {onChooseAnother ? (
        <button
          type="button"
          onClick={onChooseAnother}
          className="min-h-11 self-start text-sm font-semibold text-accent underline-offset-2 hover:underline"
        >
          {t('payment.chooseAnotherWay')}
        </button>
      ) : null}
    </section>
  );
}
