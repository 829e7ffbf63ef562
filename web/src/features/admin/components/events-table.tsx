import { Link } from 'react-router';
import type { EventDto } from '../../../../../contracts/catalogue';
import type { MessageKey } from '../../../../../contracts/i18n/types';
import { cn } from '../../../components/ui/cn';
import { Time } from '../../../components/ui/time';
import { useI18n } from '../../../lib/i18n';

/**
 * The admin table's columns; the less important ones hide on small screens. Every column but the
 * title keeps to one line at its content's width; the title takes the width they leave (w-full max-w-0: however
 * long, it never widens the table), so each row's actions stay in view. Below md the title wraps in full (cut
 * short in so narrow a column, similar titles would look the same); wider, it is cut short to one line.
 * Each heading says text-start itself: a th inheriting 'start' from its table would be centred.
 */
export const ADMIN_COLUMNS = [
  { key: 'number', className: 'w-12 hidden sm:table-cell whitespace-nowrap text-start' },
  { key: 'title', className: 'w-full max-w-0 text-start' },
  { key: 'host', className: 'hidden lg:table-cell whitespace-nowrap text-start' },
  { key: 'time', className: 'hidden md:table-cell whitespace-nowrap text-start' },
  { key: 'date', className: 'hidden md:table-cell whitespace-nowrap text-start' },
  { key: 'price', className: 'whitespace-nowrap text-start' },
  { key: 'tickets', className: 'hidden sm:table-cell whitespace-nowrap text-start' },
  { key: 'actions', className: 'w-32 text-end' },
] as const;

type AdminColumn = (typeof ADMIN_COLUMNS)[number]['key'];

/** A column's heading: '#' for the row number (not a text), none for the actions (named for screen readers). */
export function useColumnHeading(): (key: AdminColumn) => string {
  const { t } = useI18n();
  return (key) => {
    if (key === 'number') return '#';
    if (key === 'actions') return '';
    return t(`admin.columns.${key}` satisfies MessageKey);
  };
}

function PencilIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
      <path strokeLinecap="round" strokeLinejoin="round" d="M16.9 3.6a2.1 2.1 0 0 1 3 3L8 18.5 4 20l1.5-4L16.9 3.6Z" />
    </svg>
  );
}

function PeopleIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
      <path
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Zm-6 9c0-3.3 2.7-6 6-6s6 2.7 6 6M16 4.5a3.5 3.5 0 0 1 0 6.5M18 14.5c1.8.9 3 2.9 3 5.5"
      />
    </svg>
  );
}

function ChartIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
      <path strokeLinecap="round" strokeLinejoin="round" d="M4 20h16M7 16v-5M12 16V6M17 16v-8" />
    </svg>
  );
}

function CancelIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
      <circle cx="12" cy="12" r="8.5" />
      <path strokeLinecap="round" d="M6 6l12 12" />
    </svg>
  );
}

function TrashIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
      <path strokeLinecap="round" strokeLinejoin="round" d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
    </svg>
  );
}

/**
 * The frame of the table and of its placeholder. Should the one-line columns ever need more than the box (a
 * phone's width with a long price), the table scrolls sideways inside it rather than being cut off.
 */
export const TABLE_FRAME = 'overflow-x-auto rounded-xl border border-border';

const iconButton =
  'grid size-9 place-items-center rounded-lg text-fg-muted transition-colors hover:bg-surface-overlay focus-visible:outline-2 focus-visible:outline-accent';

export function EventsTable({
  events,
  firstNumber,
  onDelete,
  onCancel,
}: {
  events: EventDto[];
  /** The row number of the first row (1 on page 1, 11 on page 2...). */
  firstNumber: number;
  onDelete: (event: EventDto, trigger: HTMLButtonElement) => void;
  /** Cancel the event (its buyers are refunded); not offered once it is cancelled. */
  onCancel: (event: EventDto, trigger: HTMLButtonElement) => void;
}) {
  const { t, date, price, number } = useI18n();
  const heading = useColumnHeading();
  const cell = (key: AdminColumn) => ADMIN_COLUMNS.find((column) => column.key === key)?.className ?? '';
  return (
    <div className={TABLE_FRAME}>
      <table className="w-full text-start text-sm">
        <thead className="bg-surface-overlay text-fg-muted">
          <tr>
            {ADMIN_COLUMNS.map((column) => (
              <th key={column.key} scope="col" className={cn('px-3 py-3 font-semibold', column.className)}>
                {column.key === 'actions' ? <span className="sr-only">{t('admin.actions')}</span> : heading(column.key)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {events.map((event, index) => (
            <tr key={event.id} className="border-t border-border hover:bg-surface-raised">
              <td className={cn('px-3 py-2 text-fg-muted', cell('number'))}>{number(firstNumber + index)}</td>
              <th scope="row" className={cn('px-3 py-2 font-medium', cell('title'))}>
                <span className="block break-words md:truncate" title={event.title}>
                  <bdi>{event.title}</bdi>
                </span>
                {event.cancelledAt ? (
                  <span className="mt-1 inline-flex items-center rounded-full border border-red-500/40 bg-red-500/15 px-2 py-0.5 text-xs font-semibold text-danger">
                    {t('admin.cancelledBadge')}
                  </span>
                ) : null}
                <span className="block text-xs font-normal text-fg-muted md:hidden">
                  {date(event.startDate)} · <Time value={event.startTime} />
                </span>
              </th>
              <td className={cn('px-3 py-2 text-fg-muted', cell('host'))}>
                <span className="block max-w-48 truncate" title={event.host}>
                  <bdi>{event.host}</bdi>
                </span>
              </td>
              <td className={cn('px-3 py-2', cell('time'))}>
                <Time value={event.startTime} />
              </td>
              <td className={cn('px-3 py-2', cell('date'))}>{date(event.startDate)}</td>
              <td className={cn('px-3 py-2', cell('price'))}>{price(event.pricePiasters)}</td>
              <td className={cn('px-3 py-2', cell('tickets'))}>
                {number(event.ticketsAvailable)}
                <span className="text-fg-muted"> / {number(event.capacity)}</span>
              </td>
              <td className={cn('px-3 py-2', cell('actions'))}>
                {/* Two by two on a phone: four buttons in a row would leave the title no room. */}
                <div className="ms-auto flex w-[4.75rem] flex-wrap justify-end gap-1 sm:w-auto sm:flex-nowrap">
                  <Link
                    to={`/admin/event/${event.id}/attendees`}
                    aria-label={t('admin.attendeesOf', { title: event.title })}
                    title={t('admin.attendees')}
                    className={cn(iconButton, 'hover:text-accent')}
                  >
                    <PeopleIcon />
                  </Link>
                  <Link
                    to={`/admin/event/${event.id}/dashboard`}
                    aria-label={t('dashboard.dashboardOf', { title: event.title })}
                    title={t('dashboard.title')}
                    className={cn(iconButton, 'hover:text-accent')}
                  >
                    <ChartIcon />
                  </Link>
                  <Link
                    to={`/admin/event/${event.id}`}
                    aria-label={t('admin.editOf', { title: event.title })}
                    title={t('admin.edit')}
                    className={cn(iconButton, 'hover:text-accent')}
                  >
                    <PencilIcon />
                  </Link>
                  {event.cancelledAt ? null : (
                    <button
                      type="button"
                      aria-label={t('admin.cancelEventOf', { title: event.title })}
                      title={t('admin.cancelEvent')}
                      className={cn(iconButton, 'hover:text-danger')}
                      onClick={(e) => onCancel(event, e.currentTarget)}
                    >
                      <CancelIcon />
                    </button>
                  )}
                  <button
                    type="button"
                    aria-label={t('admin.deleteOf', { title: event.title })}
                    title={t('admin.delete')}
                    className={cn(iconButton, 'hover:text-danger')}
                    onClick={(e) => onDelete(event, e.currentTarget)}
                  >
                    <TrashIcon />
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
