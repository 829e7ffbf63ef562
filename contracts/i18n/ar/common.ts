import type { common as english } from '../en/common';
import type { Translation } from '../types';

export const common: Translation<typeof english> = {
  somethingWentWrong: 'حدث خطأ ما، حاول مرة أخرى لاحقًا',
  renderFailure: 'حدث خطأ ما.',
  notFound: 'الصفحة غير موجودة',
  backToHome: 'العودة إلى الرئيسية',
  dashboard: 'لوحة التحكم',
  brandInitial: 'إ',
  brand: 'إيفنتري',
  tryAgain: 'حاول مرة أخرى',
  pageNotFoundTitle: 'الصفحة غير موجودة',
  notifications: 'الإشعارات',
  closeNotification: 'إغلاق الإشعار',
  siteTitle: 'إيفنتري — اكتشف الفعاليات واحجز تذاكرك',
  siteDescription: 'اكتشف الفعاليات القريبة منك واحجز تذاكرك في ثوانٍ مع إيفنتري.',
  noScript: 'يحتاج إيفنتري إلى تفعيل جافاسكريبت ليعمل.',
  switchLanguage: 'English',
  languageName: 'العربية',
  months: 'يناير فبراير مارس أبريل مايو يونيو يوليو أغسطس سبتمبر أكتوبر نوفمبر ديسمبر',
  weekdays: 'الأحد الاثنين الثلاثاء الأربعاء الخميس الجمعة السبت',
};
