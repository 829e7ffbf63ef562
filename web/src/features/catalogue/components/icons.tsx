/** Small stroke icons (decorative: the text beside them carries the meaning). */
export function Icon({ d, className = 'size-4 shrink-0 text-accent' }: { d: string; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={d} />
    </svg>
  );
}

/** An icon of one path, drawn like the others; its size and colour from `className` (Icon's by default). */
export const iconOf =
  (d: string) =>
  ({ className }: { className?: string }) => <Icon className={className} d={d} />;

export const IconCalendar = /* @__PURE__ */ iconOf(
  'M7 3v3M17 3v3M4 9h16M5 5h14a1 1 0 011 1v13a1 1 0 01-1 1H5a1 1 0 01-1-1V6a1 1 0 011-1z',
);
export const IconClock = /* @__PURE__ */ iconOf('M12 7v5l3 2M12 21a9 9 0 100-18 9 9 0 000 18z');
export const IconPin = /* @__PURE__ */ iconOf(
  'M12 21s-7-6.2-7-11a7 7 0 0114 0c0 4.8-7 11-7 11zM12 12.5a2.5 2.5 0 100-5 2.5 2.5 0 000 5z',
);
export const IconArrowUp = /* @__PURE__ */ iconOf('M12 19V5M6 11l6-6 6 6');
export const IconSearch = /* @__PURE__ */ iconOf('M11 18a7 7 0 100-14 7 7 0 000 14zM20 20l-4-4');
