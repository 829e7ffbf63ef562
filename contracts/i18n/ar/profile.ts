import type { profile as english } from '../en/profile';
import type { Translation } from '../types';

export const profile: Translation<typeof english> = {
  heading: 'تعديل الملف الشخصي',
  saved: 'تم حفظ تعديلاتك بنجاح',

  changePicture: 'تغيير صورة الملف الشخصي',
  uploadingPicture: 'جارٍ رفع صورتك',
  edit: 'تعديل',
  pictureFile: 'ملف صورة الملف الشخصي',
  pictureHint: 'بصيغة JPEG أو PNG أو WebP، بحد أقصى ٥ ميجابايت',
  passwordHint:
    'اترك حقلي كلمة المرور فارغين لتحتفظ بكلمة مرورك الحالية. عند تغيير كلمة المرور يُسجَّل خروجك من أجهزتك الأخرى.',
  cancel: 'إلغاء',
  continue: 'متابعة',
};
