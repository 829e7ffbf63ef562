import { type ReactNode, type RefObject, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '../../../../components/ui/button';
import { cn } from '../../../../components/ui/cn';
import { useI18n } from '../../../../lib/i18n';

/** The width a chart is drawn at before its box has been measured. */
const DEFAULT_WIDTH = 640;
/** Whether the last 'Show as table' chosen was to show: a screen-reader user sets it once (localStorage). */
const TABLES_KEY = 'eventry.dashboard.tables';

function tablesShown(): boolean {
  try {
    return localStorage.getItem(TABLES_KEY) === 'shown';
  } catch {
    return false;
  }
}

function rememberTables(shown: boolean) {
  try {
    localStorage.setItem(TABLES_KEY, shown ? 'shown' : 'hidden');
  } catch {
    // Private browsing without storage: the choice lasts for this page only.
  }
}

/** The inner width of an element, kept up to date as it changes (a turned phone, a resized window). */
function useBoxWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const next = Math.floor(element.clientWidth);
      if (next > 0) setWidth(next);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

export interface ChartTable {
  /** The headings of the columns; the first column's cells head their rows. */
  columns: string[];
  rows: string[][];
}

/**
 * A chart as a figure: its title, the drawing (an SVG whose label is the text summary, drawn at the box's width,
 * scrolling sideways inside the box when it needs more), and a 'Show as table' button that reveals the same
 * figures as a table. `legend` names the series in words (colour is never the only cue).
 */
export function ChartFigure({
  title,
  table,
  legend,
  children,
}: {
  title: string;
  table: ChartTable;
  legend?: ReactNode;
  children: (width: number) => ReactNode;
}) {
  const { t } = useI18n();
  const tableId = useId();
  const [shown, setShown] = useState(tablesShown);
  const [boxRef, width] = useBoxWidth<HTMLDivElement>();
  const toggle = () => {
    setShown(!shown);
    rememberTables(!shown);
  };
  return (
    <figure className="grid min-w-0 grid-cols-[minmax(0,1fr)_auto] content-start items-start gap-x-2 gap-y-3 rounded-xl border border-border bg-surface-raised p-3 sm:p-4">
      <figcaption className="self-center text-base font-semibold">{title}</figcaption>
      <Button variant="ghost" size="sm" aria-expanded={shown} aria-controls={tableId} onClick={toggle}>
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M4 5h16v14H4zM4 10h16M4 15h16M10 5v14" strokeLinejoin="round" />
        </svg>
        {shown ? t('dashboard.hideTable') : t('dashboard.showTable')}
      </Button>
      {legend ? <div className="col-span-2">{legend}</div> : null}
      <ScrollBox label={title} className="col-span-2" boxRef={boxRef} startAtEnd>
        {children(width)}
      </ScrollBox>
      <div id={tableId} hidden={!shown} className="col-span-2 min-w-0">
        <ScrollBox label={title}>
          <table className="w-full text-sm">
            <caption className="sr-only">{title}</caption>
            <thead className="text-fg-muted">
              <tr>
                {table.columns.map((column, i) => (
                  <th
                    key={column}
                    scope="col"
                    className={`break-normal px-2 py-1.5 align-bottom font-semibold ${i === 0 ? 'text-start' : 'text-end'}`}
                  >
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row) => (
                <tr key={row[0]} className="border-t border-border">
                  {row.map((cell, i) =>
                    i === 0 ? (
                      <th
                        key={table.columns[i]}
                        scope="row"
                        className="whitespace-nowrap px-2 py-1.5 text-start font-normal"
                      >
                        {cell}
                      </th>
                    ) : (
                      <td key={table.columns[i]} className="whitespace-nowrap px-2 py-1.5 text-end tabular-nums">
                        {cell}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      </div>
    </figure>
  );
}

/**
 * A box that scrolls sideways when its content is wider (a long range on a phone). While it does, it takes the
 * focus, so that the keyboard can scroll it too (WCAG 2.1.1), named by what it holds.
 */
function ScrollBox({
  label,
  className,
  boxRef,
  startAtEnd = false,
  children,
}: {
  label: string;
  className?: string;
  boxRef?: RefObject<HTMLDivElement | null>;
  /** Shows the end first (a chart's latest days), and again whenever the content's width changes. */
  startAtEnd?: boolean;
  children: ReactNode;
}) {
  const { dir } = useI18n();
  const ownRef = useRef<HTMLDivElement>(null);
  const ref = boxRef ?? ownRef;
  const [scrolls, setScrolls] = useState(false);
  const scrolledFor = useRef(0);
  // After every render (the content may have grown: more days) and whenever the box is resized.
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setScrolls(element.scrollWidth > element.clientWidth + 1);
    if (startAtEnd && element.scrollWidth !== scrolledFor.current) {
      scrolledFor.current = element.scrollWidth;
      // In Arabic the box scrolls to negative offsets (its end is at the left).
      element.scrollLeft = dir === 'rtl' ? -element.scrollWidth : element.scrollWidth;
    }
  });
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setScrolls(element.scrollWidth > element.clientWidth + 1));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return (
    <div
      ref={ref}
      className={cn('relative min-w-0 overflow-x-auto', className)}
      {...(scrolls ? { tabIndex: 0, role: 'group', 'aria-label': label } : {})}
    >
      {children}
    </div>
  );
}

/** The drawing of a chart: an image to assistive technology, named by its summary (the table has the figures). */
export function ChartSvg({
  width,
  height,
  summary,
  children,
}: {
  width: number;
  height: number;
  summary: string;
  children: ReactNode;
}) {
  const { dir } = useI18n();
  return (
    // The charts mirror their geometry themselves (x reversed in Arabic); text keeps the page's direction, so
    // that Arabic labels read right to left and a label anchored at its start begins at the axis.
    <svg
      role="img"
      aria-label={summary}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      direction={dir}
      className="block max-w-none select-none overflow-visible text-fg-muted"
      fontSize={12}
    >
      {children}
    </svg>
  );
}

/** One series in a legend: its swatch (solid, dashed or a bar) and its name. */
export function LegendItem({ color, kind, label }: { color: string; kind: 'bar' | 'line' | 'dashed'; label: string }) {
  return (
    <li className="flex items-center gap-1.5">
      <svg aria-hidden="true" width="18" height="10" viewBox="0 0 18 10" className="shrink-0">
        {kind === 'bar' ? (
          <rect x="3" y="0" width="12" height="10" rx="2" fill={color} />
        ) : (
          <line
            x1="0"
            y1="5"
            x2="18"
            y2="5"
            stroke={color}
            strokeWidth="2.5"
            strokeDasharray={kind === 'dashed' ? '4 3' : undefined}
          />
        )}
      </svg>
      {label}
    </li>
  );
}

export function Legend({ children }: { children: ReactNode }) {
  return <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-fg-muted">{children}</ul>;
}
