import type { Lang } from './languages';

/**
 * An instant as a reader in `lang` reads it, in a named zone: 'Dec 5, 2026, 07:30 PM' / '٥ ديسمبر ٢٠٢٦، ٧:٣٠ م'.
 * Its own module: the organiser's pages and the ticket PDF need it, not a page's first load.
 */
export function instantIn(lang: Lang, iso: string | Date, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions =
    lang === 'ar'
      ? { dateStyle: 'medium', timeStyle: 'short', hour12: true, timeZone }
      : { month: 'short', day: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: true, timeZone };
  return new Intl.DateTimeFormat(lang === 'ar' ? 'ar-EG' : 'en-US', options).format(new Date(iso));
}
