import { Button } from '../../../components/ui/button';

/** Signs the user out (filled in by the accounts issue). */
export function LogoutButton({ className }: { className?: string }) {
  return (
    <Button variant="secondary" size="sm" className={className}>
      Logout
    </Button>
  );
}
