import { useI18n } from '../../../../lib/i18n';
import { ChartSvg } from './chart-figure';
import { mirror, share } from './chart-math';
import { CHART_COLORS } from './time-chart';

export interface BarListRow {
  label: string;
  value: number;
  /** What is written beside the bar ('12 · 1,800 EGP', '30 · 25%'). */
  text: string;
  color?: string;
}

const ROW = 46;
const BAR = 16;

/**
 * Horizontal bars on one baseline, one row each (payment methods, the funnel's steps): the row's name above its
 * bar, the figures after it. Lengths compare to the largest row; they grow from the start side (the right in Arabic).
 */
export function BarListChart({ width, summary, rows }: { width: number; summary: string; rows: BarListRow[] }) {
  const { dir } = useI18n();
  const m = mirror(width, dir === 'rtl');
  const largest = Math.max(0, ...rows.map((row) => row.value));
  const height = Math.max(ROW, rows.length * ROW);
  // Room after the longest bar for its figures.
  const room = Math.min(width * 0.45, Math.max(...rows.map((row) => row.text.length * 7), 40) + 12);
  const full = Math.max(0, width - room);
  return (
    <ChartSvg width={width} height={height} summary={summary}>
      {rows.map((row, i) => {
        const top = i * ROW;
        const length = Math.max(row.value > 0 ? 2 : 0, share(row.value, largest) * full);
        return (
          <g key={row.label}>
            <text x={m.x(0)} y={top + 13} textAnchor="start" fill="var(--color-fg)">
              {row.label}
            </text>
            {length > 0 ? (
              <rect
                x={m.box(0, length)}
                y={top + 20}
                width={length}
                height={BAR}
                rx={3}
                fill={row.color ?? CHART_COLORS.accent}
              />
            ) : null}
            <text x={m.x(length + 8)} y={top + 20 + BAR / 2} dy="0.32em" textAnchor="start" fill="currentColor">
              {row.text}
            </text>
          </g>
        );
      })}
    </ChartSvg>
  );
}
