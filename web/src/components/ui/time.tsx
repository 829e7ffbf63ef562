import { formatTime12 } from '../../../../contracts/dates';

/** A time of day as '07:30 PM', never broken across two lines ('07:30' on one, 'PM' on the next). */
export function Time({ value }: { value: string }) {
  return <span className="whitespace-nowrap">{formatTime12(value)}</span>;
}

/** '07:30 PM - 10:00 PM': a narrow line may break at the dash, never inside a time. */
export function TimeRange({ start, end }: { start: string; end: string }) {
  return (
    <>
      <Time value={start} /> - <Time value={end} />
    </>
  );
}
