import type { login as english } from '../en/login';
import type { Translation } from '../types';

export const login: Translation<typeof english> = {
  heading: 'سجّل الدخول إلى حسابك',
  emailRequired: 'من فضلك أدخل بريدك الإلكتروني',
  emailInvalid: 'من فضلك أدخل بريدًا إلكترونيًا صحيحًا',
  passwordRequired: 'من فضلك أدخل كلمة المرور',
  wrongCredentials: 'البريد الإلكتروني أو كلمة المرور غير صحيحة',
  success: 'تم تسجيل الدخول بنجاح',
  logoutSuccess: 'تم تسجيل الخروج بنجاح',

  noAccount: 'ليس لديك حساب؟',
  forgotPassword: 'نسيت كلمة المرور؟',
  signingIn: 'جارٍ تسجيل الدخول',
  toBook: 'سجّل الدخول لتحجز تذاكرك.',
  toSeeMessage: 'سجّل الدخول لتطّلع على تأكيد رسالتك.',
  toContinue: 'سجّل الدخول للمتابعة.',
};
