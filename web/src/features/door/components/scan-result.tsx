import type { I18n } from '../../../../../contracts/i18n/i18n';
import { cn } from '../../../components/ui/cn';
import { useI18n } from '../../../lib/i18n';
import type { ScanAnswer } from '../lib/use-door';

/** What a scan's answer says, in the page's language: a headline, and the lines under it. */
export function describeAnswer(
  answer: ScanAnswer,
  timeZone: string | undefined,
  i18n: I18n,
): { admitted: boolean; headline: string; lines: string[] } {
  const { t } = i18n;
  if (answer.outcome === 'error') {
    const message =
      answer.message === 'noBundle'
        ? t('door.noBundle')
        : answer.message === 'scanFailed'
          ? t('door.scanFailed')
          : answer.message;
    return { admitted: false, headline: t('door.refused'), lines: [message] };
  }
  const ticket = answer.ticket
    ? [answer.ticket.holderName, t('door.ticketOf', { number: answer.ticket.number, of: answer.ticket.of })]
    : [];
  switch (answer.outcome) {
    case 'admitted':
      return {
        admitted: true,
        headline: t('door.admitted'),
        lines: [...ticket, ...(answer.offline ? [t('door.admittedOffline')] : [])],
      };
    case 'already_checked_in':
      return { admitted: false, headline: alreadyCheckedIn(answer, timeZone, i18n), lines: ticket };
    case 'wrong_event':
      return { admitted: false, headline: t('door.wrongEvent'), lines: [] };
    case 'void':
      return { admitted: false, headline: t('door.void'), lines: ticket };
    default:
      return { admitted: false, headline: t('door.unknown'), lines: [] };
  }
}

/** 'Already checked in at 19:42 by Mona Adel', each part when known. */
function alreadyCheckedIn(answer: { checkedInAt?: string; by?: string }, timeZone: string | undefined, i18n: I18n) {
  const clock = clockTime(answer.checkedInAt, timeZone);
  // English says '19:42' as it always has; Arabic '٧:٤٢ م'.
  const time = clock && i18n.lang !== 'en' ? i18n.time(clock) : clock;
  const by = answer.by;
  if (time && by) return i18n.t('door.alreadyCheckedInAtBy', { time, by });
  if (time) return i18n.t('door.alreadyCheckedInAt', { time });
  if (by) return i18n.t('door.alreadyCheckedInBy', { by });
  return i18n.t('door.alreadyCheckedIn');
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
 * The holder's name is the first line: shown in its own direction.
 */
export function ScanResultOverlay({ answer, timeZone }: { answer: ScanAnswer; timeZone: string | undefined }) {
  const { admitted, headline, lines } = describeAnswer(answer, timeZone, useI18n());
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
        <p key={line} dir="auto" className="text-xl sm:text-3xl">
          {line}
        </p>
      ))}
    </div>
  );
}
