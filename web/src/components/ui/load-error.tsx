import { useI18n } from '../../lib/i18n';
import { Button, ButtonLink } from './button';
import { Spinner } from './spinner';

/**
 * A page whose data could not be loaded: 'Something went wrong, try again later', and a way on
 * from there instead of a dead end: load it again, or go back to a page that works.
 */
export function LoadError({
  onRetry,
  retrying,
  back,
}: {
  onRetry: () => void;
  /** Asking again: the button spins. It stays enabled (a disabled button would drop the keyboard focus). */
  retrying: boolean;
  back: { to: string; label: string };
}) {
  const { t } = useI18n();
  return (
    <div className="flex flex-col items-center gap-6 py-16 text-center">
      <p role="alert" className="text-fg-muted">
        {t('common.somethingWentWrong')}
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button onClick={onRetry} aria-busy={retrying || undefined}>
          {retrying ? <Spinner label={null} /> : null}
          {t('common.tryAgain')}
        </Button>
        <ButtonLink to={back.to} variant="secondary">
          {back.label}
        </ButtonLink>
      </div>
    </div>
  );
}
