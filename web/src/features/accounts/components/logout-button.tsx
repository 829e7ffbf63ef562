import { Button } from '../../../components/ui/button';
import { useI18n } from '../../../lib/i18n';
import { useSignOut } from '../api/sign-out';

/** Signs the user out: 'Logged out Successfully', then /. */
export function LogoutButton({ className }: { className?: string }) {
  const signOut = useSignOut();
  const { t } = useI18n();
  return (
    <Button
      variant="secondary"
      size="sm"
      className={className}
      disabled={signOut.isPending}
      onClick={() => signOut.mutate()}
    >
      {t('accounts.logout')}
    </Button>
  );
}
