import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { serverNow } from '../../../lib/server-clock';

/** Seconds left on the server's clock (a device whose own clock is minutes off still ends on time). */
function remaining(expiresAt: string): number {
  return Math.max(0, Math.floor((new Date(expiresAt).getTime() - serverNow()) / 1000));
}

/**
 * How long the tickets stay held; calls onExpire once when the hold runs out. An expired hold cannot be
 * paid (the payment page then shows that the reservation has ended), so the way on is to choose again.
 */
export function HoldCountdown({
  expiresAt,
  eventId,
  onExpire,
}: {
  expiresAt: string;
  /** The event whose ticket page the expired hold links to. */
  eventId?: string;
  onExpire?: () => void;
}) {
  const [seconds, setSeconds] = useState(() => remaining(expiresAt));
  useEffect(() => {
    setSeconds(remaining(expiresAt));
    const timer = setInterval(() => setSeconds(remaining(expiresAt)), 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  useEffect(() => {
    if (seconds === 0) onExpire?.();
  }, [seconds, onExpire]);
  const mm = String(Math.floor(seconds / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  if (seconds === 0) {
    return (
      <p role="status" className="text-sm text-danger">
        Your hold on these tickets has expired.{' '}
        {eventId ? (
          <Link to={`/event-details/${eventId}/get-ticket`} className="font-semibold underline underline-offset-2">
            Choose your tickets again
          </Link>
        ) : (
          'Choose your tickets again'
        )}{' '}
        to book.
      </p>
    );
  }
  const lastMinute = seconds < LAST_MINUTE_SECONDS;
  return (
    <p className={`text-sm ${lastMinute ? 'text-amber-300' : 'text-fg-muted'}`}>
      Tickets held for you for{' '}
      <time dateTime={`PT${seconds}S`} className={`font-semibold tabular-nums ${lastMinute ? '' : 'text-fg'}`}>
        {mm}:{ss}
      </time>
      <span className="sr-only"> minutes</span>
      {/* Said once, as the last minute starts: the ticking time itself is not announced. */}
      <span role="status" className="sr-only">
        {lastMinute ? ' Less than a minute left to pay.' : ''}
      </span>
    </p>
  );
}

/** Under this many seconds the countdown turns amber and screen readers hear that time is nearly up. */
const LAST_MINUTE_SECONDS = 60;
