import { type ReactNode, useEffect } from 'react';
import { useI18n } from '../../lib/i18n';
import { cn } from './cn';

/**
 * Sets the document title and meta description of a page (the site's default description when none: not read
 * from the page, where the server wrote the first page's own, which must not outlive a client-side navigation to
 * a page without one). The same format as the server's (server/web-app/web-html.ts).
 */
export function useDocumentMeta(title: string, description?: string) {
  const { t } = useI18n();
  useEffect(() => {
    document.title = title ? `${title} · ${t('common.brand')}` : t('common.siteTitle');
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.appendChild(meta);
    }
    meta.content = description || t('common.siteDescription');
  }, [title, description, t]);
}

/** The standard page frame: centred, padded, with a main landmark provided by the layout. */
export function PageContainer({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn('mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-8', className)}>{children}</div>;
}
