import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { TextField } from '../../../components/ui/field';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { useI18n } from '../../../lib/i18n';
import { useMe } from '../../accounts/api/get-me';
import { useCheckInEvents } from '../api/get-check-in-events';
import { type ScanAnswer, useDoor } from '../lib/use-door';
import { CameraScanner } from './camera-scanner';
import { describeAnswer, ScanResultOverlay } from './scan-result';

/** How long the full-screen answer stays: the next scan is taken meanwhile, and shown at once. */
const SHOWN_MS = 900;

/** /admin/event/:id/check-in (routes/check-in.tsx): the scanner of one event's door, by camera or typed code, online or offline. */
export function EventScanner({ id }: { id: string }) {
  const i18n = useI18n();
  const { t, number } = i18n;
  const { data: me } = useMe();
  const events = useCheckInEvents();
  const event = events.data?.items.find((item) => item.id === id);
  const door = useDoor(id, me ? `${me.firstName} ${me.lastName}` : '', events.data?.timeZone);
  const title = event?.title ?? door.bundle?.title ?? '';
  const heading = title ? t('door.scannerTitle', { title }) : t('door.checkIn');
  useDocumentMeta(heading);

  const [code, setCode] = useState('');
  const [answer, setAnswer] = useState<ScanAnswer>();
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const hideTimer = useRef<number>(undefined);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => () => window.clearTimeout(hideTimer.current), []);
  // The scanner works offline: a chunk that cannot load then must not make main.tsx reload the page, which
  // would swap the scanner for the browser's offline page. Listening in the capture phase, this runs first.
  useEffect(() => {
    const keepPage = (event: Event) => {
      if (navigator.onLine) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    };
    window.addEventListener('vite:preloadError', keepPage, { capture: true });
    return () => window.removeEventListener('vite:preloadError', keepPage, { capture: true });
  }, []);

  const scan = useCallback(
    async (text: string) => {
      const trimmed = text.trim();
      if (!trimmed) return;
      setBusy(true);
      try {
        const result = await door.submit(trimmed);
        setAnswer(result);
        setShown(true);
        const { headline, lines } = describeAnswer(result, door.timeZone, i18n);
        setAnnouncement([headline, ...lines].join('. '));
        window.clearTimeout(hideTimer.current);
        hideTimer.current = window.setTimeout(() => setShown(false), SHOWN_MS);
      } finally {
        setBusy(false);
      }
    },
    [door.submit, door.timeZone, i18n],
  );

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const typed = code;
    setCode('');
    void scan(typed);
    input.current?.focus();
  };

  // Offline: counts from this device's copy, with its own admissions.
  const sold = event?.sold ?? door.bundle?.tickets.length;
  const checkedIn = door.offline
    ? door.bundle
      ? door.bundle.tickets.filter((t) => t.checkedInAt || door.admissions.current.some((a) => a.ticketId === t.id))
          .length
      : undefined
    : event?.checkedIn;
  const last = answer ? describeAnswer(answer, door.timeZone, i18n) : undefined;

  return (
    <PageContainer className="max-w-3xl">
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm font-medium">
        <Link to="/admin/check-in" className="text-fg-muted hover:text-accent">
          <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
            ←
          </span>{' '}
          {t('door.backToEvents')}
        </Link>
        {me?.role === 'admin' ? (
          <Link to={`/admin/event/${id}/door-staff`} className="text-fg-muted hover:text-accent">
            {t('door.doorStaffLink')}
          </Link>
        ) : null}
      </p>
      <h1 className="mt-2 break-words text-2xl font-bold sm:text-3xl">{heading}</h1>
      <dl className="mt-4 grid grid-cols-2 gap-3">
        <div className="rounded-xl border border-border bg-surface-raised p-4">
          <dt className="text-sm text-fg-muted">{t('door.checkedIn')}</dt>
          <dd className="text-3xl font-bold" data-testid="checked-in-count">
            {checkedIn === undefined ? '–' : number(checkedIn)}
          </dd>
        </div>
        <div className="rounded-xl border border-border bg-surface-raised p-4">
          <dt className="text-sm text-fg-muted">{t('door.sold')}</dt>
          <dd className="text-3xl font-bold">{sold === undefined ? '–' : number(sold)}</dd>
        </div>
      </dl>

      {door.bundle ? (
        <p className="mt-3 text-sm text-fg-muted">{t('door.bundleReady', { count: door.bundle.tickets.length })}</p>
      ) : null}

      {door.offline || door.waiting > 0 ? (
        <p
          className={cn(
            'mt-4 rounded-xl border p-3 text-sm font-semibold',
            door.offline ? 'border-amber-500/50 bg-amber-500/15 text-amber-200' : 'border-border bg-surface-raised',
          )}
        >
          {door.offline
            ? door.waiting > 0
              ? t('door.offlineWaiting', { count: door.waiting })
              : t('door.offlineNoWaiting')
            : door.syncing
              ? t('door.syncing', { count: door.waiting })
              : t('door.waiting', { count: door.waiting })}
        </p>
      ) : null}

      <form onSubmit={onSubmit} className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField
          ref={input}
          label={t('door.ticketCode')}
          dir="ltr"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          enterKeyHint="go"
          className="flex-1"
          hint={<p className="text-xs text-fg-muted">{t('door.ticketCodeHint')}</p>}
        />
        <Button type="submit" className="sm:mt-7" aria-busy={busy || undefined}>
          {t('door.checkInButton')}
        </Button>
      </form>

      <div aria-live="assertive" role="status" className="sr-only">
        {announcement}
      </div>

      {last ? (
        <div
          data-testid="last-scan"
          className={cn(
            'mt-6 rounded-xl border-2 p-4',
            last.admitted ? 'border-green-600 bg-green-600/10' : 'border-red-600 bg-red-600/10',
          )}
        >
          <p className="text-xl font-bold">{last.headline}</p>
          {last.lines.map((line) => (
            <p key={line}>
              <bdi>{line}</bdi>
            </p>
          ))}
        </div>
      ) : null}

      <div className="mt-6">
        <CameraScanner onCode={(text) => void scan(text)} paused={busy} />
      </div>

      {answer && shown ? <ScanResultOverlay answer={answer} timeZone={door.timeZone} /> : null}
    </PageContainer>
  );
}
