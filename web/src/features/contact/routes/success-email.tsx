import { commonMessages } from '../../../../../contracts/messages/common';
import { contactMessages } from '../../../../../contracts/messages/contact';
import { ButtonLink } from '../../../components/ui/button';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function SuccessEmailRoute() {
  useDocumentMeta(contactMessages.successTitle);
  return (
    <PageContainer className="flex min-h-[60vh] items-center justify-center">
      <div className="flex w-full max-w-md flex-col items-center gap-4 rounded-2xl border border-border bg-surface-raised p-8 text-center shadow-lg">
        <span className="flex size-16 items-center justify-center rounded-full bg-accent/15 text-accent">
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="size-8"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
          >
            <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </span>
        <h1 className="text-2xl font-bold sm:text-3xl">{contactMessages.successTitle}</h1>
        <p className="text-fg-muted">{contactMessages.successText}</p>
        <ButtonLink to="/" size="lg" className="mt-2">
          {commonMessages.backToHome}
        </ButtonLink>
      </div>
    </PageContainer>
  );
}
