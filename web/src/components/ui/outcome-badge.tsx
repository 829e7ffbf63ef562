/** The round badge above a result page's heading: a drawn tick for success, an exclamation mark for failure. */
export function OutcomeBadge({ kind }: { kind: 'success' | 'failure' }) {
  const success = kind === 'success';
  return (
    <span
      aria-hidden="true"
      className={`flex size-16 items-center justify-center rounded-full ${
        success ? 'bg-accent/15 text-accent' : 'bg-red-500/15 text-danger'
      }`}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-8"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
      >
        {success ? (
          <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
        ) : (
          <path d="M12 5v9M12 18.5v.5" strokeLinecap="round" />
        )}
      </svg>
    </span>
  );
}
