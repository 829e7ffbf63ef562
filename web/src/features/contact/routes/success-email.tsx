import { ButtonLink } from '../../../components/ui/button';
import { OutcomeBadge } from '../../../components/ui/outcome-badge';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { useI18n } from '../../../lib/i18n';

export function SuccessEmailRoute() {
  const { t } = useI18n();
  useDocumentMeta(t('contact.successTitle'));
  return (
    <PageContainer className="flex min-h-[60vh] items-center justify-center">
      <div className="flex w-full max-w-md flex-col items-center gap-4 rounded-2xl border border-border bg-surface-raised p-8 text-center shadow-lg">
        <OutcomeBadge kind="success" />
        <h1 className="text-2xl font-bold sm:text-3xl">{t('contact.successTitle')}</h1>
        <p className="text-fg-muted">{t('contact.successText')}</p>
        <ButtonLink to="/" size="lg" className="mt-2">
          {t('common.backToHome')}
        </ButtonLink>
      </div>
    </PageContainer>
  );
}
