import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../../../components/ui/cn';
import { useI18n } from '../../../lib/i18n';

/** The brand linking to / (the header is hidden on the sign-in pages). */
export function AuthBrand({ className }: { className?: string }) {
  const { t } = useI18n();
  return (
    <Link
      to="/"
      className={cn('inline-flex items-center gap-2 text-xl font-extrabold tracking-tight text-fg', className)}
    >
      <span aria-hidden="true" className="grid size-8 place-items-center rounded-lg bg-accent text-accent-fg">
        {t('common.brandInitial')}
      </span>
      {t('common.brand')}
    </Link>
  );
}

/** A centred card for the sign-in, reset and new-password pages (`brand` where the header is hidden). */
export function AuthCard({
  title,
  children,
  footer,
  brand = false,
}: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  brand?: boolean;
}) {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-10 sm:py-16">
      <div className="flex w-full max-w-md flex-col gap-6">
        {brand ? <AuthBrand className="self-center" /> : null}
        <section className="rounded-2xl border border-border bg-surface-raised p-6 shadow-xl sm:p-8">
          <h1 className="mb-6 text-2xl font-bold">{title}</h1>
          {children}
        </section>
        {footer ? <div className="text-center text-sm text-fg-muted">{footer}</div> : null}
      </div>
    </div>
  );
}
