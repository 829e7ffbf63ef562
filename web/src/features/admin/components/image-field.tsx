import { type RefCallback, useId, useRef } from 'react';
import { adminMessages } from '../../../../../contracts/admin';
import { MAX_UPLOAD_BYTES } from '../../../../../contracts/constants';
import { cn } from '../../../components/ui/cn';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useUploadEventImage } from '../api/upload-event-image';

const ACCEPT = 'image/jpeg,image/png,image/webp';

/**
 * The event picture: choose a file, it uploads at once (spinner), then the preview shows the stored
 * image. The server re-checks everything; the size check here only saves a pointless upload.
 */
export function ImageField({
  value,
  error,
  onUploaded,
  onError,
  fieldRef,
}: {
  value: string;
  error?: string;
  onUploaded: (url: string) => void;
  onError: (message: string) => void;
  /** The form's handle on the file input: a refused form focuses it when the image is its first error. */
  fieldRef?: RefCallback<HTMLInputElement>;
}) {
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const upload = useUploadEventImage();

  function onFile(file: File | undefined) {
    if (!file) return;
    // A refused replacement leaves the picture shown: say that it is the one kept.
    const refuse = (message: string) => onError(value ? `${message} ${adminMessages.uploadKeptCurrent}` : message);
    if (file.size > MAX_UPLOAD_BYTES) {
      refuse(adminMessages.uploadTooLarge);
      return;
    }
    upload.mutate(file, {
      onSuccess: ({ url }) => onUploaded(url),
      onError: (e) => refuse(e instanceof ApiError && e.status === 400 ? e.message : adminMessages.uploadFailed),
      onSettled: () => {
        if (inputRef.current) inputRef.current.value = '';
      },
    });
  }

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={inputId} className={cn('text-sm font-medium', error ? 'text-danger' : 'text-fg')}>
        Event image
      </label>
      <div
        className={cn(
          'relative grid aspect-video w-full max-w-xl place-items-center overflow-hidden rounded-xl border border-dashed bg-surface',
          error ? 'border-danger' : 'border-border',
        )}
      >
        {upload.isPending ? (
          <Spinner label="Uploading image" className="text-accent" />
        ) : value ? (
          <img src={value} alt="Event preview" className="size-full object-cover" />
        ) : (
          <span className="px-4 text-center text-sm text-fg-muted">JPEG, PNG or WebP, at most 5 MB</span>
        )}
      </div>
      <input
        ref={(node) => {
          inputRef.current = node;
          fieldRef?.(node);
        }}
        id={inputId}
        type="file"
        accept={ACCEPT}
        disabled={upload.isPending}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => onFile(e.target.files?.[0])}
        className="max-w-xl text-sm text-fg-muted file:mr-3 file:rounded-lg file:border-0 file:bg-surface-overlay file:px-4 file:py-2 file:font-semibold file:text-fg hover:file:bg-border"
      />
      {error ? (
        <p id={errorId} className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
