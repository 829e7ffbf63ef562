import { commonMessages } from '../../../../../contracts/messages/common';
import { contactMessages } from '../../../../../contracts/messages/contact';
import { ButtonLink } from '../../../components/ui/button';
import { OutcomeBadge } from '../../../components/ui/outcome-badge';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function SuccessEmailRoute() {
  useDocumentMeta(contactMessages.successTitle);
  return (
    <PageContainer className="flex min-h-[60vh] items-center justify-center">
      <div className="flex w-full max-w-md flex-col items-center gap-4 rounded-2xl border border-border bg-surface-raised p-8 text-center shadow-lg">
        <OutcomeBadge kind="success" />
        <h1 className="text-2xl font-bold sm:text-3xl">{contactMessages.successTitle}</h1>
        <p className="text-fg-muted">{contactMessages.successText}</p>
        <ButtonLink to="/" size="lg" className="mt-2">
          {commonMessages.backToHome}
        </ButtonLink>
      </div>
    </PageContainer>
  );
}
