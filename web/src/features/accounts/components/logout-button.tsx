import { Button } from '../../../components/ui/button';
import { useSignOut } from '../api/sign-out';

/** Signs the user out: 'Logged out Successfully', then /. */
export function LogoutButton({ className }: { className?: string }) {
  const signOut = useSignOut();
  return (
    <Button
      variant="secondary"
      size="sm"
      className={className}
      disabled={signOut.isPending}
      onClick={() => signOut.mutate()}
    >
      Logout
    </Button>
  );
}
