import { Link } from 'react-router';
import { catalogueMessages } from '../../../../../contracts/messages/catalogue';
import { buttonClasses } from '../../../components/ui/button';

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
  if (pageCount <= 1) return null;
  const disabled = 'pointer-events-none opacity-40';
  return (
    <nav aria-label="Pagination" data-keep-clear className="mx-auto flex w-fit items-center justify-center gap-4">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className={buttonClasses('secondary')} rel="prev">
          {catalogueMessages.previous}
        </Link>
      ) : (
        <span aria-disabled="true" className={buttonClasses('secondary', 'md', disabled)}>
          {catalogueMessages.previous}
        </span>
      )}
      <span className="text-sm text-fg-muted" aria-live="polite">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={hrefFor(page + 1)} className={buttonClasses('secondary')} rel="next">
          {catalogueMessages.next}
        </Link>
      ) : (
        <span aria-disabled="true" className={buttonClasses('secondary', 'md', disabled)}>
          {catalogueMessages.next}
        </span>
      )}
    </nav>
  );
}
