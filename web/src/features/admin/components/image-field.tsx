import { type RefCallback, useId, useRef, useState } from 'react';
import { MAX_UPLOAD_BYTES } from '../../../../../contracts/constants';
import { messageText } from '../../../../../contracts/i18n/text';
import { buttonClasses } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { useUploadEventImage } from '../api/upload-event-image';

const ACCEPT = 'image/jpeg,image/png,image/webp';

/**
 * The event picture: choose a file, it uploads at once (spinner), then the preview shows the stored
 * image. The server re-checks everything; the size check here only saves a pointless upload.
 * The native file input would say "No file chosen" beside the picture shown (it is emptied after each
 * upload, and knows nothing of the saved image): it is kept for the keyboard and screen readers but
 * hidden, and a button-like label and a status line of our own say what is there.
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
  const i18n = useI18n();
  const { t } = i18n;
  const inputId = useId();
  const labelId = `${inputId}-label`;
  const statusId = `${inputId}-status`;
  const errorId = `${inputId}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const upload = useUploadEventImage();
  /** The name of the file uploaded here; none while the picture is the one the event was saved with. */
  const [fileName, setFileName] = useState<string | null>(null);

  function onFile(file: File | undefined) {
    if (!file) return;
    // A refused replacement leaves the picture shown: say that it is the one kept.
    const refuse = (message: string) => onError(value ? `${message} ${t('admin.uploadKeptCurrent')}` : message);
    if (file.size > MAX_UPLOAD_BYTES) {
      refuse(t('admin.uploadTooLarge'));
      return;
    }
    upload.mutate(file, {
      onSuccess: ({ url }) => {
        setFileName(file.name);
        onUploaded(url);
      },
      onError: (e) => refuse(e instanceof ApiError && e.status === 400 ? e.message : t('admin.uploadFailed')),
      onSettled: () => {
        if (inputRef.current) inputRef.current.value = '';
      },
    });
  }

  return (
    <div className="flex flex-col gap-1.5">
      <label id={labelId} htmlFor={inputId} className={cn('text-sm font-medium', error ? 'text-danger' : 'text-fg')}>
        {t('eventForm.imageLabel')}
      </label>
      <div
        className={cn(
          'relative grid aspect-video w-full max-w-xl place-items-center overflow-hidden rounded-xl border border-dashed bg-surface',
          error ? 'border-danger' : 'border-border',
        )}
      >
        {upload.isPending ? (
          <Spinner label={t('eventForm.uploadingImage')} className="text-accent" />
        ) : value ? (
          <img src={value} alt={t('eventForm.imagePreview')} className="size-full object-cover" />
        ) : (
          <span className="px-4 text-center text-sm text-fg-muted">{t('eventForm.imageHint')}</span>
        )}
      </div>
      <div className="relative flex max-w-xl items-center gap-3">
        <input
          ref={(node) => {
            inputRef.current = node;
            fieldRef?.(node);
          }}
          id={inputId}
          type="file"
          accept={ACCEPT}
          disabled={upload.isPending}
          // Named by the field's label only: the button-like label below is a second label of the input.
          aria-labelledby={labelId}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${statusId} ${errorId}` : statusId}
          onChange={(e) => onFile(e.target.files?.[0])}
          className="peer sr-only"
        />
        {/* Clicking it opens the file picker; the focus ring is the hidden input's. */}
        <label
          htmlFor={inputId}
          aria-hidden="true"
          className={buttonClasses(
            'secondary',
            'md',
            'shrink-0 cursor-pointer peer-focus:outline-2 peer-focus:outline-offset-2 peer-focus:outline-accent peer-disabled:cursor-not-allowed peer-disabled:opacity-50',
          )}
        >
          {t(value ? 'eventForm.replaceImage' : 'eventForm.chooseImage')}
        </label>
        <span id={statusId} className="min-w-0 truncate text-sm text-fg-muted">
          {upload.isPending ? (
            t('eventForm.uploading')
          ) : value && fileName ? (
            <bdi>{fileName}</bdi>
          ) : (
            t(value ? 'eventForm.currentImage' : 'eventForm.noImage')
          )}
        </span>
      </div>
      {error ? (
        <p id={errorId} className="text-sm text-danger">
          {messageText(i18n, error)}
        </p>
      ) : null}
    </div>
  );
}
