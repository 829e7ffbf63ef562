import { useI18n } from '../../../../lib/i18n';
import { ChartSvg } from './chart-figure';
import { chartWidth, labelEvery, linear, mirror, niceScale, slots } from './chart-math';

/** The charts' colours (docs/research/charts-for-the-dashboard.md: each passes 3:1 on the surfaces). */
export const CHART_COLORS = {
  accent: 'var(--color-accent)',
  danger: 'var(--color-danger)',
  muted: 'var(--color-fg-muted)',
  grid: 'var(--color-border)',
  sky: '#7dd3fc',
  amber: '#fbbf24',
  violet: '#c4b5fd',
} as const;

export interface BarSeries {
  label: string;
  color: string;
  values: number[];
}

export interface LineSeries extends BarSeries {
  /** The second axis (at the end side): a running total beside per-slot bars. */
  secondary?: boolean;
}

export interface ReferenceLine {
  value: number;
  label: string;
}

const HEIGHT = 240;
const TOP = 28;
const BOTTOM = 28;
/** A label's width in pixels, roughly, at the charts' 12 px. */
const charWidth = 7;
const estimate = (texts: string[]) => Math.max(24, ...texts.map((text) => text.length * charWidth)) + 10;

/**
 * Bars per slot of time (a day, an hour, 15 minutes; several series side by side), lines over them, and a dashed
 * reference line (capacity). Bars and lines read on the start side's axis; `secondary` lines and the reference
 * line on the end side's. Mirrored in Arabic: time runs from the right, the first axis on the right.
 */
export function TimeChart({
  width: boxWidth,
  summary,
  labels,
  bars,
  lines = [],
  reference,
  format,
  secondaryFormat = format,
  integer = false,
  minSlot,
}: {
  width: number;
  summary: string;
  /** Each slot's short label (under the axis, as many as fit). */
  labels: string[];
  bars: BarSeries[];
  lines?: LineSeries[];
  reference?: ReferenceLine;
  format: (value: number) => string;
  secondaryFormat?: (value: number) => string;
  /** Counts: whole steps on the axes. */
  integer?: boolean;
  /** The narrowest a slot may be before the chart scrolls instead. */
  minSlot: number;
}) {
  const { dir } = useI18n();
  const count = labels.length;
  const firstLines = lines.filter((line) => !line.secondary);
  const secondLines = lines.filter((line) => line.secondary);
  const primary = niceScale(
    [...bars, ...firstLines].flatMap((series) => series.values),
    { integer },
  );
  const hasSecondary = secondLines.length > 0 || reference !== undefined;
  const secondary = niceScale(
    [...secondLines.flatMap((series) => series.values), ...(reference ? [reference.value] : [])],
    { integer },
  );
  const startAxis = estimate(primary.ticks.map(format));
  const endAxis = hasSecondary ? estimate(secondary.ticks.map(secondaryFormat)) : 12;
  const width = chartWidth(boxWidth, count, minSlot, startAxis + endAxis);
  const m = mirror(width, dir === 'rtl');
  const plotStart = startAxis;
  const plotEnd = width - endAxis;
  const bottom = HEIGHT - BOTTOM;
  const y = linear(primary, bottom, TOP);
  const y2 = linear(secondary, bottom, TOP);
  const slot = slots(count, plotStart, plotEnd);
  const every = labelEvery(slot.width, estimate(labels));
  const group = Math.min(slot.width * 0.8, bars.length * 28);
  const barWidth = bars.length > 0 ? group / bars.length : 0;

  return (
    <ChartSvg width={width} height={HEIGHT} summary={summary}>
      {primary.ticks.map((tick) => (
        <g key={`p${tick}`}>
          <line
            x1={m.x(plotStart)}
            x2={m.x(plotEnd)}
            y1={y(tick)}
            y2={y(tick)}
            stroke={CHART_COLORS.grid}
            strokeWidth={tick === 0 ? 1.5 : 1}
          />
          <text x={m.x(plotStart - 6)} y={y(tick)} dy="0.32em" textAnchor="end" fill="currentColor">
            {format(tick)}
          </text>
        </g>
      ))}
      {hasSecondary
        ? secondary.ticks.map((tick) => (
            <text key={`s${tick}`} x={m.x(plotEnd + 6)} y={y2(tick)} dy="0.32em" textAnchor="start" fill="currentColor">
              {secondaryFormat(tick)}
            </text>
          ))
        : null}

      {labels.map((label, i) =>
        i % every === 0 ? (
          <text
            // biome-ignore lint/suspicious/noArrayIndexKey: the slots are the axis's, in order
            key={i}
            x={m.x(slot.centre(i))}
            y={bottom + 18}
            textAnchor="middle"
            fill="currentColor"
          >
            {label}
          </text>
        ) : null,
      )}

      {bars.map((series, s) =>
        series.values.map((value, i) => {
          if (value === 0) return null;
          const x = slot.centre(i) - group / 2 + s * barWidth;
          const top = Math.min(y(value), y(0));
          return (
            <rect
              // biome-ignore lint/suspicious/noArrayIndexKey: one bar per series and slot
              key={`${s}-${i}`}
              x={m.box(x + 0.5, Math.max(1, barWidth - 1))}
              y={top}
              width={Math.max(1, barWidth - 1)}
              height={Math.max(1, Math.abs(y(value) - y(0)))}
              rx={Math.min(3, barWidth / 4)}
              fill={series.color}
            />
          );
        }),
      )}

      {reference ? (
        <g>
          <line
            x1={m.x(plotStart)}
            x2={m.x(plotEnd)}
            y1={y2(reference.value)}
            y2={y2(reference.value)}
            stroke={CHART_COLORS.muted}
            strokeWidth={1.5}
            strokeDasharray="6 4"
          />
          <text x={m.x(plotStart + 4)} y={y2(reference.value) - 6} textAnchor="start" fill="currentColor">
            {reference.label}
          </text>
        </g>
      ) : null}

      {lines.map((series) => {
        const scale = series.secondary ? y2 : y;
        const points = series.values.map((value, i) => `${m.x(slot.centre(i))},${scale(value)}`);
        return (
          <g key={series.label}>
            {points.length > 1 ? (
              <polyline
                points={points.join(' ')}
                fill="none"
                stroke={series.color}
                strokeWidth={2}
                strokeLinejoin="round"
              />
            ) : null}
            {slot.width >= 10 || points.length === 1
              ? series.values.map((value, i) => (
                  <circle
                    // biome-ignore lint/suspicious/noArrayIndexKey: one point per slot
                    key={i}
                    cx={m.x(slot.centre(i))}
                    cy={scale(value)}
                    r={2.5}
                    fill={series.color}
                  />
                ))
              : null}
          </g>
        );
      })}
    </ChartSvg>
  );
}
