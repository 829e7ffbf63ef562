import { Skeleton } from '../../../components/ui/skeleton';
import { useI18n } from '../../../lib/i18n';
import { ADMIN_COLUMNS, TABLE_FRAME, useColumnHeading } from './events-table';

/** The table's placeholder: the same columns, grey bars in ten rows (a page's worth). */
export function EventsTableSkeleton() {
  const { t } = useI18n();
  const heading = useColumnHeading();
  return (
    <div className={TABLE_FRAME} aria-busy="true">
      <p role="status" className="sr-only">
        {t('admin.loadingEvents')}
      </p>
      <table className="w-full text-start text-sm" aria-hidden="true">
        <thead className="bg-surface-overlay text-fg-muted">
          <tr>
            {ADMIN_COLUMNS.map((column) => (
              <th key={column.key} scope="col" className={`px-3 py-3 font-semibold ${column.className}`}>
                {heading(column.key)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: 10 }, (_, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have nothing but their position
            <tr key={row} className="border-t border-border">
              {ADMIN_COLUMNS.map((column) => (
                <td key={column.key} className={`px-3 py-3.5 ${column.className}`}>
                  <Skeleton className={column.key === 'title' ? 'h-4 w-full max-w-40' : 'h-4 w-12'} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
