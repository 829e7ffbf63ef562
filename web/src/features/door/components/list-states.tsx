import { Button } from '../../../components/ui/button';

/** A list that could not be loaded: why, and a way to ask again (the door's pages). */
export function ListLoadError({
  message,
  retry,
  onRetry,
  retrying,
}: {
  message: string;
  retry: string;
  onRetry: () => void;
  retrying: boolean;
}) {
  return (
    <div role="alert" className="rounded-xl border border-border bg-surface-raised p-6 text-center">
      <p>{message}</p>
      <Button variant="secondary" size="sm" className="mt-4" onClick={onRetry} disabled={retrying}>
        {retry}
      </Button>
    </div>
  );
}

/** An empty list's sentence. */
export function EmptyList({ children }: { children: string }) {
  return <p className="rounded-xl border border-border bg-surface-raised p-6 text-center text-fg-muted">{children}</p>;
}
