import type { dashboard as english } from '../en/dashboard';
import type { Translation } from '../types';

export const dashboard: Translation<typeof english> = {
  dayInvalid: 'اختر تاريخًا صحيحًا (YYYY-MM-DD)',
  rangeReversed: 'يجب أن يكون تاريخ النهاية في يوم البداية أو بعده',
  rangeTooLong: 'اختر مدة لا تزيد على {max} يومًا',
  eventNotFound: 'هذه الفعالية غير موجودة أو تم حذفها.',
  methods: {
    simulated: 'بطاقة تجريبية',
    stripe: 'بطاقة (Stripe)',
    paymobCard: 'بطاقة (Paymob)',
    paymobWallet: 'محفظة إلكترونية',
    paymobCash: 'نقدًا في منفذ دفع',
  },
  orderStatus: {
    paid: 'مدفوع',
    partlyRefunded: 'مُسترد جزئيًا',
    refunded: 'مُسترد',
  },
  orderColumns: {
    order: 'الطلب',
    event: 'الفعالية',
    eventDate: 'تاريخ الفعالية',
    name: 'الاسم',
    email: 'البريد الإلكتروني',
    method: 'طريقة الدفع',
    paidAt: 'وقت الدفع',
    tickets: 'التذاكر',
    paid: 'المدفوع (ج.م.)',
    refundedAt: 'وقت الاسترداد',
    ticketsRefunded: 'التذاكر المُستردة',
    refunded: 'المُسترد (ج.م.)',
    status: 'الحالة',
  },
  attendeeColumns: {
    event: 'الفعالية',
    eventDate: 'تاريخ الفعالية',
  },
};
