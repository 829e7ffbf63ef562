import { useLocation } from 'react-router';
import { cn } from '../../components/ui/cn';
import { useI18n } from '../../lib/i18n';

/**
 * The other language's name, in that language ('العربية' on the English site, 'English' on the Arabic one). A plain
 * link to /api/language/{lang}?to={this page}: the server keeps the choice (a cookie, and a signed-in user's
 * profile) and sends the browser back to the same page, drawn in the other language. It works before the app has
 * taken the page over, and the session is untouched.
 */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t, lang } = useI18n();
  const { pathname, search } = useLocation();
  const other = lang === 'ar' ? 'en' : 'ar';
  const href = `/api/language/${other}?to=${encodeURIComponent(pathname + search)}`;
  return (
    <a
      href={href}
      lang={other}
      className={cn('rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-fg hover:text-accent', className)}
    >
      {t('common.switchLanguage')}
    </a>
  );
}
