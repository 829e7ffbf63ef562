import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../../../lib/i18n';
import { serverNow } from '../../../lib/server-clock';
import { DEFAULT_TIME_ZONE, deadlineParams } from '../../../lib/wall-clock';

/** Seconds left on the server's clock (a device whose own clock is minutes off still ends on time). */
function remaining(expiresAt: string): number {
  return Math.max(0, Math.floor((new Date(expiresAt).getTime() - serverNow()) / 1000));
}

/**
 * How long the tickets stay held; calls onExpire once when the hold runs out. An expired hold cannot be
 * paid (the payment page then shows that the reservation has ended), so the way on is to choose again. A hold
 * hours long (kiosk cash kept it) is told by its end, not by a counter of minutes, until its last hour.
 */
export function HoldCountdown({
  expiresAt,
  eventId,
  onExpire,
  timeZone = DEFAULT_TIME_ZONE,
  quietWhileFar = false,
}: {
  expiresAt: string;
  /** The event whose ticket page the expired hold links to. */
  eventId?: string;
  onExpire?: () => void;
  /** The zone the end of a long hold is told in (the app's). */
  timeZone?: string;
  /** Says nothing of a long hold's end (the page shows it elsewhere), though it still calls onExpire. */
  quietWhileFar?: boolean;
}) {
  const i18n = useI18n();
  const { t, number } = i18n;
  const [seconds, setSeconds] = useState(() => remaining(expiresAt));
  useEffect(() => {
    setSeconds(remaining(expiresAt));
    const timer = setInterval(() => setSeconds(remaining(expiresAt)), 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  useEffect(() => {
    if (seconds === 0) onExpire?.();
  }, [seconds, onExpire]);
  // Two digits each, in the page's digits ('04:59', '٠٤:٥٩').
  const twoDigits = (value: number) => `${value < 10 ? number(0) : ''}${number(value)}`;
  const mm = twoDigits(Math.floor(seconds / 60));
  const ss = twoDigits(seconds % 60);
  if (seconds === 0) {
    return (
      <p role="status" className="text-sm text-danger">
        {t('payment.holdOver')}{' '}
        {eventId ? (
          <Link to={`/event-details/${eventId}/get-ticket`} className="font-semibold underline underline-offset-2">
            {t('payment.chooseAgainLink')}
          </Link>
        ) : (
          t('payment.chooseAgainLink')
        )}{' '}
        {t('payment.toBook')}
      </p>
    );
  }
  if (seconds > FAR_SECONDS) {
    if (quietWhileFar) return null;
    return <p className="text-sm text-fg-muted">{t('payment.heldUntil', deadlineParams(i18n, expiresAt, timeZone))}</p>;
  }
  const lastMinute = seconds < LAST_MINUTE_SECONDS;
  return (
    <p className={`text-sm ${lastMinute ? 'text-amber-300' : 'text-fg-muted'}`}>
      {t('payment.heldFor')}{' '}
      <time
        dateTime={`PT${seconds}S`}
        dir="ltr"
        className={`font-semibold tabular-nums ${lastMinute ? '' : 'text-fg'}`}
      >
        {mm}:{ss}
      </time>
      <span className="sr-only"> {t('payment.minutes')}</span>
      {/* Said once, as the last minute starts: the ticking time itself is not announced. */}
      <span role="status" className="sr-only">
        {lastMinute ? ` ${t('payment.lastMinute')}` : ''}
      </span>
    </p>
  );
}

/** Under this many seconds the countdown turns amber and screen readers hear that time is nearly up. */
const LAST_MINUTE_SECONDS = 60;
/** Over this many seconds the hold is told by its end: a counter of hundreds of minutes says little. */
const FAR_SECONDS = 60 * 60;
