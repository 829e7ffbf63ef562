/**
 * The arithmetic of the dashboard's charts, apart from React so that it can be tested: value scales with round
 * ticks, the slots of a time axis (mirrored in a right-to-left page), running totals and peaks.
 */

export interface Scale {
  min: number;
  max: number;
  /** Round values from min to max, both included. */
  ticks: number[];
}

/** 1, 2 or 5 times a power of ten, the smallest such at least `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const residual = raw / magnitude;
  const nice = residual <= 1 ? 1 : residual <= 2 ? 2 : residual <= 5 ? 5 : 10;
  return nice * magnitude;
}

/** Drops the float noise of a sum of steps (0.1 + 0.2). */
function clean(value: number): number {
  return Number.parseFloat(value.toPrecision(12));
}

/**
 * A scale that holds every value and zero, in about `count` round steps (1-2-5). `integer` keeps steps whole (a
 * count of tickets has no half). An empty or all-zero series gets 0..1, so its axis still draws.
 */
export function niceScale(values: readonly number[], { count = 4, integer = false } = {}): Scale {
  const low = Math.min(0, ...values);
  // Nothing above zero and nothing below: an axis up to 1 all the same.
  const high = Math.max(0, ...values) || (low < 0 ? 0 : 1);
  let step = niceStep((high - low) / count);
  if (integer) step = Math.max(1, Math.ceil(step));
  const min = clean(Math.floor(low / step) * step);
  const max = clean(Math.ceil(high / step) * step);
  const ticks: number[] = [];
  for (let i = 0; ; i += 1) {
    const tick = clean(min + i * step);
    if (tick > max) break;
    ticks.push(tick);
  }
  return { min, max, ticks };
}

/** Maps a value of [min, max] to [start, end] (start is the bottom of a vertical axis). */
export function linear(scale: Pick<Scale, 'min' | 'max'>, start: number, end: number): (value: number) => number {
  const span = scale.max - scale.min || 1;
  return (value) => start + ((value - scale.min) / span) * (end - start);
}

/** Where the slots of a time axis are: n slots across [start, end], the first at the start. */
export interface Slots {
  width: number;
  /** The start edge of slot i. */
  x(i: number): number;
  /** The centre of slot i. */
  centre(i: number): number;
}

export function slots(count: number, start: number, end: number): Slots {
  const width = count > 0 ? (end - start) / count : 0;
  const x = (i: number) => start + i * width;
  return { width, x, centre: (i) => x(i) + width / 2 };
}

/**
 * Charts are laid out from the start side (left to right); in a right-to-left page each horizontal position is
 * mirrored in the drawing's width. Text is not mirrored (no scaleX(-1)): it takes the page's direction, so that
 * an anchor at its start is at its right in Arabic.
 */
export interface Mirror {
  x(x: number): number;
  /** The left edge of a box that starts at `x` and is `width` wide. */
  box(x: number, width: number): number;
}

export function mirror(width: number, rtl: boolean): Mirror {
  if (!rtl) return { x: (x) => x, box: (x) => x };
  return { x: (x) => width - x, box: (x, w) => width - x - w };
}

/** Every how many slots a label fits, when a label needs `labelWidth` and a slot is `slotWidth` wide. */
export function labelEvery(slotWidth: number, labelWidth: number): number {
  if (!(slotWidth > 0)) return 1;
  return Math.max(1, Math.ceil(labelWidth / slotWidth));
}

/** Running totals: [2, 0, 3] → [2, 2, 5]. */
export function runningTotals(values: readonly number[]): number[] {
  let total = 0;
  return values.map((value) => {
    total += value;
    return total;
  });
}

/** The index of the largest value (the first of equals), or -1 when none is above zero. */
export function peakIndex(values: readonly number[]): number {
  let best = -1;
  values.forEach((value, i) => {
    if (value > 0 && (best < 0 || value > (values[best] ?? 0))) best = i;
  });
  return best;
}

/** The part as a share of the whole (0..1), 0 when the whole is 0. */
export function share(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

/** The width a chart is drawn at: its box's, or wider when its slots would be too narrow to read (it then scrolls). */
export function chartWidth(boxWidth: number, count: number, minSlot: number, margins: number): number {
  return Math.max(boxWidth, Math.ceil(count * minSlot + margins));
}
