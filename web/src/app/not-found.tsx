import { ButtonLink } from '../components/ui/button';
import { useDocumentMeta } from '../components/ui/page';
import { useMe } from '../features/accounts/api/get-me';
import { useI18n } from '../lib/i18n';

export function NotFoundRoute() {
  const { t } = useI18n();
  useDocumentMeta(t('common.pageNotFoundTitle'));
  const { data: me } = useMe();
  const isAdmin = me?.role === 'admin';
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-6 px-6 py-24 text-center">
      <p aria-hidden="true" className="text-8xl font-black text-accent">
        404
      </p>
      <h1 className="text-3xl font-bold tracking-wide">{t('common.notFound')}</h1>
      <ButtonLink to={isAdmin ? '/admin' : '/'} size="lg">
        {isAdmin ? t('common.dashboard') : t('common.backToHome')}
      </ButtonLink>
    </div>
  );
}
