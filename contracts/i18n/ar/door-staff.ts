import type { doorStaff as english } from '../en/door-staff';
import type { Translation } from '../types';

/**
 * \u2068…\u2069 (invisible isolates) keep a name in its own direction inside the Arabic sentence, \u2066…\u2069 an
 * email left to right.
 */
export const doorStaff: Translation<typeof english> = {
  doorStaffTitle: 'فريق البوابة',
  doorStaffIntro: 'أشخاص يمكنهم تسجيل حضور التذاكر على بوابة هذه الفعالية، دون أي صلاحية أخرى في لوحة التحكم.',
  email: 'البريد الإلكتروني',
  grant: 'أضف إلى فريق البوابة',
  revoke: 'إزالة',
  revokeLabel: 'إزالة \u2068{name}\u2069 من فريق البوابة',
  granted: 'أصبح بإمكان \u2066{email}\u2069 تسجيل حضور التذاكر في هذه الفعالية',
  revoked: 'تمت إزالة \u2068{name}\u2069 من فريق البوابة',
  noDoorStaff: 'لا يوجد أحد في فريق البوابة لهذه الفعالية بعد.',
  grantedAt: 'منذ',
  emailUnknown: 'لا يوجد حساب بهذا البريد الإلكتروني. اطلب من صاحبه إنشاء حساب أولًا.',
  emailInvalid: 'أدخل عنوان بريد إلكتروني',
  notDoorStaff: 'لست ضمن فريق البوابة لهذه الفعالية',
  eventNotFound: 'هذه الفعالية غير موجودة أو تم حذفها.',
  loadFailed: 'تعذّر تحميل فريق البوابة. حاول مرة أخرى.',
  retry: 'حاول مرة أخرى',
  failed: 'لم تنجح العملية. حاول مرة أخرى.',
  notOnDoorStaff: 'هذا الشخص ليس ضمن فريق البوابة لهذه الفعالية.',
};
