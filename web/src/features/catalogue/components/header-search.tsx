/** The header's live search (filled in by the catalogue issue). */
export function HeaderSearch({ className }: { className?: string }) {
  return (
    <div className={className}>
      <label htmlFor="header-search" className="sr-only">
        Search events
      </label>
      <input
        id="header-search"
        type="search"
        placeholder="Search events"
        className="h-10 w-full rounded-lg border border-border bg-surface px-3 text-sm"
      />
    </div>
  );
}
