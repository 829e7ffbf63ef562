import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { useI18n } from '../../../lib/i18n';

/**
 * Previous / Next links; nothing at all with one page or none. The row is only as wide as its
 * controls, and the scroll-to-top button keeps clear of it (`data-keep-clear`).
 */
export function Pagination({
  page,
  pageCount,
  hrefFor,
}: {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
}) {
  const { t } = useI18n();
  if (pageCount <= 1) return null;
  const disabled = 'pointer-events-none opacity-40';
  return (
    <nav
      aria-label={t('catalogue.pagination')}
      data-keep-clear
      data-pagination
      className="mx-auto flex w-fit items-center justify-center gap-4"
    >
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className={buttonClasses('secondary')} rel="prev">
          {t('catalogue.previous')}
        </Link>
      ) : (
        <span aria-disabled="true" className={buttonClasses('secondary', 'md', disabled)}>
          {t('catalogue.previous')}
        </span>
      )}
      <span className="text-sm text-fg-muted" aria-live="polite">
        {t('catalogue.pageOf', { page, pages: pageCount })}
      </span>
      {page < pageCount ? (
        <Link to={hrefFor(page + 1)} className={buttonClasses('secondary')} rel="next">
          {t('catalogue.next')}
        </Link>
      ) : (
        <span aria-disabled="true" className={buttonClasses('secondary', 'md', disabled)}>
          {t('catalogue.next')}
        </span>
      )}
    </nav>
  );
}
