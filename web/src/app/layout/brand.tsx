import { Link } from 'react-router';
import { useI18n } from '../../lib/i18n';

/** The logo and name, linking home. `compact`: the name is shown from the sm breakpoint only (still read out). */
export function Brand({ to = '/', compact = false }: { to?: string; compact?: boolean }) {
  const { t } = useI18n();
  return (
    <Link to={to} className="flex shrink-0 items-center gap-2 text-xl font-extrabold tracking-tight text-fg">
      <span aria-hidden="true" className="grid size-8 place-items-center rounded-lg bg-accent text-accent-fg">
        {t('common.brandInitial')}
      </span>
      <span className={compact ? 'max-sm:sr-only' : undefined}>{t('common.brand')}</span>
    </Link>
  );
}
