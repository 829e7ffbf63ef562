import type { resetPassword as english } from '../en/reset-password';
import type { Translation } from '../types';

export const resetPassword: Translation<typeof english> = {
  heading: 'إعادة تعيين كلمة المرور',
  sent: 'إذا كان بريدك الإلكتروني مسجّلًا لدينا، فقد أرسلنا إليه رابطًا لإعادة تعيين كلمة المرور.',

  intro: 'أدخل البريد الإلكتروني لحسابك، وسنرسل إليك رابطًا لإعادة تعيين كلمة المرور.',
  submit: 'إعادة تعيين كلمة المرور',
  sending: 'جارٍ الإرسال',
  backToSignIn: 'العودة إلى تسجيل الدخول',
};
