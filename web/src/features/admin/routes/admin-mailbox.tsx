import type { ReactNode } from 'react';
import type { MailboxEntry } from '../../../../../contracts/contact';
import { instantIn } from '../../../../../contracts/i18n/instant';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Skeleton } from '../../../components/ui/skeleton';
import { useI18n } from '../../../lib/i18n';
import { useMailbox } from '../api/get-mailbox';

const URL_PATTERN = /(https?:\/\/[^\s<>"']+)/g;

/** Plain text with its http(s) links made clickable. React escapes the rest: no HTML is ever interpreted. */
function Linkified({ text }: { text: string }) {
  const parts: ReactNode[] = text.split(URL_PATTERN).map((part, i) =>
    i % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never reorder
      <a key={i} href={part} className="break-all text-accent underline underline-offset-2 hover:text-accent-strong">
        {part}
      </a>
    ) : (
      part
    ),
  );
  return <>{parts}</>;
}

const statusStyles: Record<MailboxEntry['status'], string> = {
  logged: 'bg-sky-500/15 text-sky-300',
  sent: 'bg-accent/15 text-accent',
  pending: 'bg-amber-500/15 text-amber-300',
  failed: 'bg-red-500/15 text-danger',
};

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
/** The browser's time zone: the mailbox shows when each email was written, where its reader is. */
const here = dateTime.resolvedOptions().timeZone;

function MailCard({ mail }: { mail: MailboxEntry }) {
  const { t, lang } = useI18n();
  // English keeps its format ('Dec 5, 2026, 7:30 PM'); Arabic is written as Arabic writes it.
  const createdAt = lang === 'en' ? dateTime.format(new Date(mail.createdAt)) : instantIn(lang, mail.createdAt, here);
  return (
    <li>
      <article
        aria-label={mail.subject}
        className="flex flex-col gap-3 rounded-xl border border-border bg-surface-raised p-4 sm:p-5"
      >
        <header className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 dir="auto" className="break-words font-semibold">
              {mail.subject}
            </h2>
            <p className="mt-1 break-words text-sm text-fg-muted">
              {t('admin.mailTo', { to: mail.to })}
              {mail.replyTo ? t('admin.mailReplyTo', { replyTo: mail.replyTo }) : ''}
            </p>
          </div>
          <div className="flex shrink-0 items-center gap-2 text-xs">
            <span className={cn('rounded-full px-2.5 py-1 font-semibold', statusStyles[mail.status])}>
              {t(`admin.mailStatus.${mail.status}`)}
            </span>
            <time dateTime={mail.createdAt} className="text-fg-muted">
              {createdAt}
            </time>
          </div>
        </header>
        {mail.text !== null ? (
          <pre
            dir="auto"
            className="max-h-80 overflow-auto whitespace-pre-wrap break-words rounded-lg bg-surface p-3 font-sans text-sm text-fg"
          >
            <Linkified text={mail.text} />
          </pre>
        ) : (
          <p className="text-sm text-fg-muted">
            {mail.attempts > 1 ? t('admin.sentOverSmtpAfter', { count: mail.attempts }) : t('admin.sentOverSmtp')}
          </p>
        )}
        {mail.lastError && mail.status !== 'sent' ? (
          <p className="break-words text-sm text-danger">
            {t('admin.lastError', { attempt: mail.attempts, error: mail.lastError })}
          </p>
        ) : null}
      </article>
    </li>
  );
}

/** The dev mailbox: with SMTP_URL unset, every email is kept here so its links work on a laptop. */
export function AdminMailboxRoute() {
  const { t } = useI18n();
  useDocumentMeta(t('admin.mailboxTitle'));
  const { data, isPending, isError, refetch, isFetching } = useMailbox();
  return (
    <PageContainer className="max-w-4xl">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">{t('admin.mailboxTitle')}</h1>
          <p className="mt-2 text-fg-muted">
            {t(data?.delivery === 'smtp' ? 'admin.mailboxSmtp' : 'admin.mailboxLog')}
          </p>
        </div>
        <Button variant="secondary" size="sm" onClick={() => void refetch()} disabled={isFetching}>
          {t('admin.refresh')}
        </Button>
      </div>
      <div className="mt-6" aria-busy={isPending}>
        {isPending ? (
          <div className="flex flex-col gap-3">
            <Skeleton className="h-32" />
            <Skeleton className="h-32" />
            <Skeleton className="h-32" />
          </div>
        ) : isError ? (
          <div role="alert" className="rounded-xl border border-border bg-surface-raised p-6 text-center">
            <p>{t('admin.mailboxFailed')}</p>
            <Button variant="secondary" size="sm" className="mt-4" onClick={() => void refetch()}>
              {t('admin.tryAgain')}
            </Button>
          </div>
        ) : data.items.length === 0 ? (
          <p className="rounded-xl border border-border bg-surface-raised p-6 text-center text-fg-muted">
            {t('admin.mailboxEmpty')}
          </p>
        ) : (
          <ul className="flex flex-col gap-3">
            {data.items.map((mail) => (
              <MailCard key={mail.id} mail={mail} />
            ))}
          </ul>
        )}
      </div>
    </PageContainer>
  );
}
