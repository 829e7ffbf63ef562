import { buttonClasses } from '../components/ui/button';
import { useI18n } from '../lib/i18n';

/** The top-level error fallback: 'Something went wrong.' */
export function ErrorFallback() {
  const { t } = useI18n();
  return (
    <div role="alert" className="flex min-h-dvh flex-col items-center justify-center gap-6 p-6 text-center">
      <h1 className="text-2xl font-bold">{t('common.renderFailure')}</h1>
      <a href="/" className={buttonClasses('primary')}>
        {t('common.backToHome')}
      </a>
    </div>
  );
}
