import type { contact as english } from '../en/contact';
import type { Translation } from '../types';

export const contact: Translation<typeof english> = {
  heading: 'تواصل معنا',
  description: 'تنظّم فعالية؟ أخبر فريق إيفنتري عنها.',
  intro: 'أخبرنا عن الفعالية التي تودّ استضافتها على إيفنتري. يقرأ فريقنا كل رسالة ويردّ عليها عبر البريد الإلكتروني.',
  nameRequired: 'الاسم مطلوب',
  nameTooShort: 'يجب ألا يقل الاسم عن ٣ أحرف',
  emailRequired: 'البريد الإلكتروني مطلوب',
  emailInvalid: 'يُرجى إدخال بريد إلكتروني صحيح (مثل {email}).',
  subjectRequired: 'الموضوع مطلوب',
  descriptionTooShort: 'يجب ألا يقل الوصف عن ٢٠ حرفًا',
  tooLong: 'يجب ألا يتجاوز عدد الأحرف {max}',
  sendFailed: 'تعذّر إرسال الرسالة',
  sending: 'جارٍ الإرسال',
  tooManyMessages: {
    zero: 'أرسلت رسائل كثيرة. يُرجى المحاولة مرة أخرى الآن.',
    one: 'أرسلت رسائل كثيرة. يُرجى الانتظار ثانية واحدة ثم المحاولة مرة أخرى.',
    two: 'أرسلت رسائل كثيرة. يُرجى الانتظار ثانيتين ثم المحاولة مرة أخرى.',
    few: 'أرسلت رسائل كثيرة. يُرجى الانتظار {count} ثوانٍ ثم المحاولة مرة أخرى.',
    many: 'أرسلت رسائل كثيرة. يُرجى الانتظار {count} ثانية ثم المحاولة مرة أخرى.',
    other: 'أرسلت رسائل كثيرة. يُرجى الانتظار {count} ثانية ثم المحاولة مرة أخرى.',
  },
  successTitle: 'تم إرسال الرسالة بنجاح',
  successText: 'شكرًا لك على رسالتك',
  nameLabel: 'الاسم',
  emailLabel: 'البريد الإلكتروني',
  subjectLabel: 'الموضوع',
  descriptionLabel: 'وصف الفعالية',
  send: 'إرسال',
};
