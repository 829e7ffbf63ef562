import type { tickets as english } from '../en/tickets';
import type { Translation } from '../types';

/** \u2068…\u2069 (invisible isolates) keep a title or a name in its own direction inside the Arabic sentence. */
export const tickets: Translation<typeof english> = {
  ticketOf: 'التذكرة {number} من {of}',
  qrLabel: 'رمز QR للتذكرة {number} من {of}',
  shortCodeLabel: 'الرمز المختصر',
  checkedInAt: 'تم الدخول بها في {when}',
  void: 'هذه التذكرة لم تعد صالحة (استُرد ثمنها أو أُلغيت).',
  addToCalendar: 'أضف إلى التقويم',
  // The mark keeps '.ics' together, left to right, inside the Arabic sentence's parentheses.
  calendarFile: 'ملف تقويم (\u200e.ics)',
  googleCalendar: 'تقويم Google',
  downloadPdf: 'تنزيل ملف PDF',
  loading: 'جارٍ تحميل تذاكرك…',
  none: 'ستظهر تذاكرك هنا بمجرد تأكيد الدفع.',
  loadFailed: 'تعذّر تحميل تذاكرك.',
  retry: 'حاول مرة أخرى',
  listLabel: 'تذاكر \u2068{title}\u2069',
  showAtDoor: 'اعرض هذا الرمز عند البوابة، أو أخبر فريق البوابة بالرمز المختصر.',
  emailIntro:
    'اعرض رمز QR الخاص بكل تذكرة عند البوابة (أو أخبر فريق البوابة برمزها المختصر). أرفقنا موعد الفعالية في ملف تقويم.',
  emailPdfHint: 'تجد تذاكرك أيضًا في ملفك الشخصي تحت «تذاكرك»، مع ملف PDF للطباعة.',
  pdfHolder: 'حامل التذكرة: \u2068{name}\u2069',
  pdfTitle: 'تذاكر: \u2068{title}\u2069',
  pdfWhen: '{date}، من {start} إلى {end}',
  bookingNotPaid: 'لم يُدفع هذا الحجز، لذا لا توجد له تذاكر.',
  bookingNotFound: 'الحجز غير موجود',
  eventNotFound: 'لم تعد هذه الفعالية متاحة.',
  notDoorStaff: 'لست ضمن فريق البوابة لهذه الفعالية',
  unknownEvent: 'فعالية غير معروفة',
  enterCode: 'أدخل كود التذكرة',
  unknownTicket: 'تذكرة غير معروفة',
};
