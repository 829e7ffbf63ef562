import { useI18n } from '../../lib/i18n';

/** A time of day as '07:30 PM' ('٧:٣٠ م'), never broken across two lines ('07:30' on one, 'PM' on the next). */
export function Time({ value }: { value: string }) {
  const { time } = useI18n();
  return <span className="whitespace-nowrap">{time(value)}</span>;
}

/** '07:30 PM - 10:00 PM': a narrow line may break at the dash, never inside a time. */
export function TimeRange({ start, end }: { start: string; end: string }) {
  return (
    <>
      <Time value={start} /> - <Time value={end} />
    </>
  );
}
