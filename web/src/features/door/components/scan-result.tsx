import { doorMessages } from '../../../../../contracts/messages/door';
import { cn } from '../../../components/ui/cn';
import type { ScanAnswer } from '../lib/use-door';

/** What a scan's answer says: a headline, and the lines under it. */
export function describeAnswer(
  answer: ScanAnswer,
  timeZone: string | undefined,
): { admitted: boolean; headline: string; lines: string[] } {
  if (answer.outcome === 'error') {
    const message =
      answer.message === 'noBundle'
        ? doorMessages.noBundle
        : answer.message === 'scanFailed'
          ? doorMessages.scanFailed
          : answer.message;
    return { admitted: false, headline: doorMessages.refused, lines: [message] };
  }
  const ticket = answer.ticket
    ? [answer.ticket.holderName, doorMessages.ticketOf(answer.ticket.number, answer.ticket.of)]
    : [];
  switch (answer.outcome) {
    case 'admitted':
      return {
        admitted: true,
        headline: doorMessages.admitted,
        lines: [...ticket, ...(answer.offline ? [doorMessages.admittedOffline] : [])],
      };
    case 'already_checked_in':
      return {
        admitted: false,
        headline: doorMessages.alreadyCheckedIn(clockTime(answer.checkedInAt, timeZone), answer.by),
        lines: ticket,
      };
    case 'wrong_event':
      return { admitted: false, headline: doorMessages.wrongEvent, lines: [] };
    case 'void':
      return { admitted: false, headline: doorMessages.void, lines: ticket };
    default:
      return { admitted: false, headline: doorMessages.unknown, lines: [] };
  }
}

/** '19:42' in the app's time zone. */
function clockTime(iso: string | undefined, timeZone: string | undefined): string | undefined {
  if (!iso) return undefined;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return undefined;
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: timeZone ?? 'Africa/Cairo',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
}

/**
 * The answer to a scan over the whole screen, green or red, for the moment it is shown; it lets every click
 * and key through, so the next scan is never held up. Screen readers hear it from the page's live region.
 */
export function ScanResultOverlay({ answer, timeZone }: { answer: ScanAnswer; timeZone: string | undefined }) {
  const { admitted, headline, lines } = describeAnswer(answer, timeZone);
  return (
    <div
      aria-hidden="true"
      data-testid="scan-overlay"
      className={cn(
        'pointer-events-none fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 p-6 text-center text-white',
        admitted ? 'bg-green-700' : 'bg-red-700',
      )}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
      >
        {admitted ? <path d="M5 12l5 5L19 7" /> : <path d="M6 6l12 12M18 6L6 18" />}
      </svg>
      <p className="text-4xl font-bold sm:text-6xl">{headline}</p>
      {lines.map((line) => (
        <p key={line} className="text-xl sm:text-3xl">
          {line}
        </p>
      ))}
    </div>
  );
}
