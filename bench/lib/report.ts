/** One line of the results table: a figure of ours beside the ceiling measured in the same run. */
export interface BenchRow {
  row: number;
  measurement: string;
  ours: number | string | null;
  ceiling: number | string | null;
  /** ours / ceiling, when both are numbers and the comparison means something. */
  ratio: number | null;
  target: string;
  pass: boolean | null;
  unit?: string;
  note?: string;
}

export function ratioOf(ours: number | null | undefined, ceiling: number | null | undefined): number | null {
  if (ours === null || ours === undefined || !ceiling) return null;
  return Math.round((ours / ceiling) * 1000) / 1000;
}

function cell(value: number | string | null | undefined, unit?: string): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') {
    const text = Number.isInteger(value)
      ? value.toLocaleString('en-US')
      : value.toLocaleString('en-US', { maximumFractionDigits: 2 });
    return unit ? `${text} ${unit}` : text;
  }
  return value;
}

/** A plain-text table (also valid Markdown) of every row. */
export function formatTable(rows: BenchRow[]): string {
  const header = ['#', 'measurement', 'ours', 'ceiling', 'ratio', 'target', 'pass?'];
  const body = rows.map((r) => [
    String(r.row),
    r.measurement,
    cell(r.ours, r.unit),
    cell(r.ceiling, r.unit),
    r.ratio === null ? '—' : `${Math.round(r.ratio * 1000) / 10}%`,
    r.target,
    r.pass === null ? '—' : r.pass ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((line) => (line[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}
