import type { emails as english } from '../en/emails';
import type { Translation } from '../types';

/**
 * \u2068…\u2069 (invisible isolates) keep a title or a name in its own direction inside the Arabic sentence (the
 * subject and the plain text too; the HTML wraps them in dir="auto" as well). {tickets} is bookings.ticketCount,
 * in the nominative ('تذكرتان'): a sentence puts it where that case fits.
 */
export const emails: Translation<typeof english> = {
  brand: 'إيفنتري',
  sentBy: 'أُرسلت هذه الرسالة من إيفنتري.',
  signOff: '— فريق إيفنتري',
  openLink: 'أو افتح هذا الرابط: {url}',
  greeting: 'مرحبًا \u2068{name}\u2069،',
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
    subject: 'رسالة تواصل على إيفنتري: \u2068{subject}\u2069',
    title: 'رسالة جديدة من نموذج التواصل',
    intro: 'وصلت رسالة جديدة من نموذج التواصل على إيفنتري.',
    nameLabel: 'الاسم',
    emailLabel: 'البريد الإلكتروني',
    subjectLabel: 'الموضوع',
    descriptionLabel: 'وصف الفعالية',
    reply: 'ردّ على هذه الرسالة للتواصل مع \u2068{name}\u2069 مباشرةً.',
  },
  booking: {
    subject: 'إيفنتري: تذاكرك لفعالية \u2068{title}\u2069',
    title: 'تم تأكيد حجزك',
    confirmed: 'تم تأكيد حجزك لفعالية \u2068{title}\u2069.',
    event: 'الفعالية',
    date: 'التاريخ',
    time: 'الوقت',
    tickets: 'التذاكر',
    total: 'المبلغ المدفوع',
    when: 'يوم {weekday}، {date}',
    times: 'من {start} إلى {end}',
    whereTickets: 'تجد تذاكرك في ملفك الشخصي، في قسم «تذاكرك».',
  },
  refund: {
    subject: 'إيفنتري: استرداد مبلغ حجزك لفعالية \u2068{title}\u2069',
    title: 'استرداد المبلغ',
    byBuyer: 'أُلغيت {tickets} من حجزك لفعالية \u2068{title}\u2069، ورددنا إليك {amount}',
    byOrganiser: 'ردّ إليك منظِّم فعالية \u2068{title}\u2069 قيمة حجزك ({tickets}): {amount}',
    eventCancelled: 'أُلغيت فعالية \u2068{title}\u2069، ورددنا إليك {amount} (التذاكر: {tickets}).',
    when: 'يعود المبلغ بالطريقة نفسها التي دفعت بها، وقد يستغرق ظهوره في حسابك البنكي أو محفظتك بضعة أيام. التذاكر المستردة لم تعد صالحة.',
  },
  waitlistOffer: {
    subject: 'إيفنتري: تذاكر فعالية \u2068{title}\u2069 في انتظارك',
    title: 'جاء دورك في قائمة الانتظار',
    offered: 'أُتيحت تذاكر من جديد لفعالية \u2068{title}\u2069، وقد حُجزت لك {tickets}.',
    offeredFewer:
      'أُتيحت تذاكر من جديد لفعالية \u2068{title}\u2069. قبلت بعدد أقل مما طلبت ({asked})، وقد حُجزت لك {tickets}.',
    until: 'التذاكر محجوزة لك حتى {time}، وبعدها تنتقل إلى التالي في قائمة الانتظار.',
    pay: 'ادفع ثمن تذاكرك',
    decline: 'غيّرت رأيك؟ ارفض العرض من صفحة الفعالية ({url})، فتنتقل التذاكر فورًا إلى التالي في القائمة.',
    declined: 'رُفض عرض قائمة الانتظار',
  },
};
