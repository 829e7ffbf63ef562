import type { bookings as english } from '../en/bookings';
import type { Translation } from '../types';

export const bookings: Translation<typeof english> = {
  yourBookings: 'حجوزاتك',
  yourTickets: 'تذاكرك',
  yourHistory: 'حجوزاتك السابقة',
  noTicketsYet: 'لا توجد تذاكر بعد.',
  noPastTickets: 'لا توجد تذاكر سابقة.',
  historyReasons: {
    removed: 'حذفها المنظِّم',
    ended: 'انتهت الفعالية',
    'sales-closed': 'انتهى بيع التذاكر',
  },
  ticketCount: {
    zero: 'لا توجد تذاكر',
    one: 'تذكرة واحدة',
    two: 'تذكرتان',
    few: '{count} تذاكر',
    many: '{count} تذكرة',
    other: '{count} تذكرة',
  },
};
