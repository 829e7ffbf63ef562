import type { emails as english } from '../en/emails';
import type { Translation } from '../types';

export const emails: Translation<typeof english> = {
  brand: 'إيفنتري',
  sentBy: 'أُرسلت هذه الرسالة من إيفنتري.',
  signOff: '— فريق إيفنتري',
  openLink: 'أو افتح هذا الرابط: {url}',
  greeting: 'مرحبًا {name}،',
  greetingNoName: 'مرحبًا،',
  verification: {
    subject: 'إيفنتري: أكّد بريدك الإلكتروني',
    title: 'أكّد بريدك الإلكتروني',
    welcome: 'أهلًا بك في إيفنتري! يُرجى تأكيد بريدك الإلكتروني.',
    welcomeText: 'أهلًا بك في إيفنتري! يُرجى تأكيد بريدك الإلكتروني بفتح هذا الرابط:',
    ignore: 'إذا لم تُنشئ حسابًا على إيفنتري، فيمكنك تجاهل هذه الرسالة.',
    action: 'تأكيد البريد الإلكتروني',
  },
  passwordReset: {
    subject: 'إيفنتري: إعادة تعيين كلمة المرور',
    title: 'إعادة تعيين كلمة المرور',
    asked: 'طلب أحدهم إعادة تعيين كلمة مرور حسابك على إيفنتري. يعمل الرابط مرة واحدة فقط، وخلال ساعة من إرساله.',
    askedText:
      'طلب أحدهم إعادة تعيين كلمة مرور حسابك على إيفنتري. افتح هذا الرابط لاختيار كلمة مرور جديدة (يعمل مرة واحدة فقط، وخلال ساعة من إرساله):',
    ignore: 'إذا لم تكن أنت من طلب ذلك، فتجاهل هذه الرسالة.',
    action: 'اختر كلمة مرور جديدة',
  },
  contact: {
    subject: 'رسالة تواصل على إيفنتري: {subject}',
    title: 'رسالة جديدة من نموذج التواصل',
    intro: 'وصلت رسالة جديدة من نموذج التواصل على إيفنتري.',
    nameLabel: 'الاسم',
    emailLabel: 'البريد الإلكتروني',
    subjectLabel: 'الموضوع',
    descriptionLabel: 'وصف الفعالية',
    reply: 'ردّ على هذه الرسالة للتواصل مع {name} مباشرةً.',
  },
  booking: {
    subject: 'إيفنتري: تذاكرك لفعالية {title}',
    title: 'تم تأكيد حجزك',
    confirmed: 'تم تأكيد حجزك لفعالية {title}.',
    event: 'الفعالية',
    date: 'التاريخ',
    time: 'الوقت',
    tickets: 'التذاكر',
    total: 'المبلغ المدفوع',
    when: 'يوم {weekday}، {date}',
    times: 'من {start} إلى {end}',
    ticketCount: {
      zero: 'لا توجد تذاكر',
      one: 'تذكرة واحدة',
      two: 'تذكرتان',
      few: '{count} تذاكر',
      many: '{count} تذكرة',
      other: '{count} تذكرة',
    },
    whereTickets: 'تجد تذاكرك في ملفك الشخصي، في قسم «تذاكرك».',
  },
};
