import type { signup as english } from '../en/signup';
import type { Translation } from '../types';

export const signup: Translation<typeof english> = {
  heading: 'أنشئ حسابًا جديدًا',
  namesRequired: 'الحقلان مطلوبان',
  nameTooShort: 'يجب ألا يقل كل حقل عن ٣ أحرف',
  nameLettersOnly: 'يُسمح بالحروف فقط',
  fieldRequired: 'هذا الحقل مطلوب',
  emailFormat: 'صيغة البريد الإلكتروني: «{email}»',
  passwordTooShort: 'يجب ألا تقل كلمة المرور عن ٦ أحرف',
  passwordUppercase: 'يجب أن تبدأ كلمة المرور بحرف كبير (مثل A)',
  confirmMismatch: 'يجب أن يطابق هذا الحقل كلمة المرور',
  emailTaken: 'هذا البريد الإلكتروني مسجّل بالفعل، من فضلك اختر بريدًا آخر',
  success: 'تم إنشاء الحساب بنجاح',
  alreadyRegistered: 'مسجّل لدينا بالفعل؟',
  alreadyRegisteredText: 'سجّل الدخول لإدارة حجوزاتك واكتشاف المزيد من الفعاليات',
  alreadyHaveAccount: 'لديك حساب بالفعل؟',

  confirmPassword: 'تأكيد كلمة المرور',
  creatingAccount: 'جارٍ إنشاء حسابك',
};
