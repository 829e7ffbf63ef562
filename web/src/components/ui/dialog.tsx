import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Button } from './button';
import { cn } from './cn';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog on the native <dialog> element (top layer, the page behind made inert). Focus moves
 * inside on open and stays there (Tab wraps), Escape closes, and focus returns to what had it before —
 * unless `returnFocus` names another element (e.g. when the button that opened it is about to disappear).
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  className,
  returnFocus,
  inlineTitle = false,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
  /** The title as a bold lead-in of the description's sentence (one line of text), not a heading above it. */
  inlineTitle?: boolean;
  /** Called on close: an element to focus instead of the one focused before opening (null: that one). */
  returnFocus?: () => HTMLElement | null | undefined;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const returnFocusRef = useRef(returnFocus);
  returnFocusRef.current = returnFocus;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const first = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => {
      if (dialog.open) dialog.close();
      const target = returnFocusRef.current?.() ?? (previous?.isConnected ? previous : null);
      target?.focus();
    };
  }, [open]);

  function onKeyDown(event: React.KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab') return;
    const items = Array.from(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []);
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onKeyDown={onKeyDown}
      // Escape fires 'cancel': close through our state so that React stays the source of truth.
      onCancel={(event) => {
        event.preventDefault();
        onCloseRef.current();
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its panel) closes it.
        if (event.target === ref.current) onCloseRef.current();
      }}
      className={cn(
        'm-auto w-[calc(100%-2rem)] max-w-md rounded-xl border border-border bg-surface-raised p-0 text-fg shadow-2xl backdrop:bg-black/70',
        className,
      )}
    >
      <div className="flex flex-col gap-3 p-6">
        {inlineTitle ? (
          <p className="text-base text-fg-muted">
            <strong id={titleId} className="font-semibold text-fg">
              {title}
            </strong>{' '}
            {description ? <span id={descriptionId}>{description}</span> : null}
          </p>
        ) : (
          <>
            <h2 id={titleId} className="text-lg font-semibold">
              {title}
            </h2>
            {description ? (
              <p id={descriptionId} className="text-sm text-fg-muted">
                {description}
              </p>
            ) : null}
          </>
        )}
        {children}
      </div>
    </dialog>
  );
}

/** A yes/no question: Cancel (focused first, the safe choice) and a confirming button. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  variant = 'danger',
  onConfirm,
  onCancel,
  returnFocus,
  inlineTitle,
}: {
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  variant?: 'danger' | 'primary';
  onConfirm: () => void;
  onCancel: () => void;
  returnFocus?: () => HTMLElement | null | undefined;
  inlineTitle?: boolean;
}) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      title={title}
      description={description}
      returnFocus={returnFocus}
      inlineTitle={inlineTitle}
    >
      <div className="mt-3 flex justify-end gap-3">
        <Button variant="secondary" onClick={onCancel} data-autofocus>
          {cancelLabel}
        </Button>
        <Button variant={variant} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
