import type { problems as english } from '../en/problems';
import type { Translation } from '../types';

export const problems: Translation<typeof english> = {
  invalid: 'الطلب غير صالح',
  notFound: 'غير موجود',
  signIn: 'سجّل الدخول للمتابعة',
  forbidden: 'غير مسموح لك بتنفيذ هذا الإجراء',
  tooManyRequests: 'طلبات كثيرة جدًا، يُرجى الانتظار قليلًا ثم المحاولة مرة أخرى.',
  internal: 'حدث خطأ ما، حاول مرة أخرى لاحقًا',
  internalShort: 'حدث خطأ ما',
  unavailable: 'الخدمة غير متاحة مؤقتًا، حاول مرة أخرى بعد قليل.',
  collided: 'تعارض هذا التغيير مع تغيير آخر. حاول مرة أخرى.',
  invalidValue: 'يحتوي الطلب على قيمة لا يمكن للخادم قبولها (مثل محرف NUL أو رقم خارج النطاق المسموح).',
  bodyCutShort: 'انقطع الطلب قبل أن يكتمل محتواه.',
  noRoute: 'لا يوجد مسار للطلب {method} {path}',
  methodNotAllowed: 'الطريقة {method} غير مسموح بها على {path}',
  badAddress: 'العنوان غير صحيح.',
  notText: 'يجب أن تكون القيمة نصًا',
  fieldInvalid: 'قيمة غير صالحة',
  network: 'خطأ في الشبكة، تحقّق من اتصالك ثم حاول مرة أخرى',
  requestFailed: 'تعذّر تنفيذ الطلب ({status})',
};
