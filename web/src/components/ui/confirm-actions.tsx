import { Button } from './button';

/**
 * A confirming dialog's foot: the error of the last try (announced), then 'keep' and the dangerous action. The
 * action is aria-disabled, not disabled, so that it keeps the focus while the request is sent.
 */
export function ConfirmActions({
  error,
  keepLabel,
  onKeep,
  confirmLabel,
  onConfirm,
  pending,
  blocked = pending,
}: {
  error: string | null;
  keepLabel: string;
  onKeep: () => void;
  confirmLabel: string;
  onConfirm: () => void;
  /** The request is being sent: 'keep' waits for it. */
  pending: boolean;
  /** The action may not be taken now (pending, or what it needs not there yet). */
  blocked?: boolean;
}) {
  return (
    <>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onKeep} disabled={pending} data-autofocus>
          {keepLabel}
        </Button>
        <Button
          variant="danger"
          aria-disabled={blocked || undefined}
          aria-busy={pending || undefined}
          className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
          onClick={onConfirm}
        >
          {confirmLabel}
        </Button>
      </div>
    </>
  );
}
