import { type FormEvent, useEffect, useState } from 'react';
import { addDays, todayIn } from '../../../../../../contracts/dates';
import { Button } from '../../../../components/ui/button';
import { cn } from '../../../../components/ui/cn';
import { TextField } from '../../../../components/ui/field';
import { useI18n } from '../../../../lib/i18n';
import { serverNow } from '../../../../lib/server-clock';
import { DEFAULT_TIME_ZONE } from '../../../../lib/wall-clock';

export interface Range {
  from?: string;
  to?: string;
}

/** The quick ranges: the last n days, today included. */
const PRESETS = [1, 7, 30, 90] as const;

/** The preset range of the last `days` days ending today in the app's time zone. */
export function presetRange(days: number, timeZone: string, now: number = serverNow()): Required<Range> {
  const to = todayIn(timeZone, new Date(now));
  return { from: addDays(to, 1 - days), to };
}

/**
 * The one date control of the dashboard: quick ranges and two dates, which every figure and chart follows. The
 * range lives in the address (?from=&to=), so that a reload, Back and a shared link keep it; the API decides what
 * is valid and its field messages show under the dates.
 */
export function DashboardRange({
  asked,
  shown,
  timeZone = DEFAULT_TIME_ZONE,
  errors = {},
  onChange,
}: {
  /** The range in the address (either end may be missing: the server's default). */
  asked: Range;
  /** The range the last answer covered. */
  shown?: Required<Range>;
  timeZone?: string;
  errors?: Record<string, string>;
  onChange: (range: Range) => void;
}) {
  const { t, date } = useI18n();
  const [from, setFrom] = useState(asked.from ?? shown?.from ?? '');
  const [to, setTo] = useState(asked.to ?? shown?.to ?? '');
  // Another range chosen (a preset, Back, the first answer): the fields show it.
  useEffect(() => setFrom(asked.from ?? shown?.from ?? ''), [asked.from, shown?.from]);
  useEffect(() => setTo(asked.to ?? shown?.to ?? ''), [asked.to, shown?.to]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onChange({ from: from || undefined, to: to || undefined });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-3 rounded-xl border border-border bg-surface-raised p-3 sm:p-4"
    >
      <fieldset className="flex min-w-0 flex-wrap gap-2">
        <legend className="sr-only">{t('dashboard.range.presets')}</legend>
        {PRESETS.map((days) => {
          const range = presetRange(days, timeZone);
          const pressed = shown?.from === range.from && shown?.to === range.to;
          return (
            <button
              key={days}
              type="button"
              aria-pressed={pressed}
              onClick={() => onChange(range)}
              className={cn(
                'h-9 rounded-full border px-3 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-accent',
                pressed
                  ? 'border-accent bg-accent text-accent-fg'
                  : 'border-border bg-surface text-fg hover:bg-surface-overlay',
              )}
            >
              {days === 1 ? t('dashboard.range.today') : t('dashboard.range.lastDays', { count: days })}
            </button>
          );
        })}
      </fieldset>
      <fieldset className="flex min-w-0 flex-wrap items-start gap-3">
        <legend className="sr-only">{t('dashboard.range.legend')}</legend>
        <TextField
          type="date"
          label={t('dashboard.range.from')}
          value={from}
          max={to || undefined}
          onChange={(e) => setFrom(e.target.value)}
          error={errors.from}
          className="w-44 max-w-full"
        />
        <TextField
          type="date"
          label={t('dashboard.range.to')}
          value={to}
          min={from || undefined}
          onChange={(e) => setTo(e.target.value)}
          error={errors.to}
          className="w-44 max-w-full"
        />
        <Button type="submit" variant="secondary" className="mt-7">
          {t('dashboard.range.apply')}
        </Button>
      </fieldset>
      {shown ? (
        <p className="text-xs text-fg-muted">
          {t('dashboard.range.showing', { from: date(shown.from), to: date(shown.to) })} ·{' '}
          {t('dashboard.range.zone', { zone: timeZone })}
        </p>
      ) : null}
    </form>
  );
}
