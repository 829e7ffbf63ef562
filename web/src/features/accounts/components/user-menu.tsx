import type { Me } from '../../../../../contracts/accounts';

/** The avatar menu of a signed-in user (filled in by the accounts issue). */
export function UserMenu({ me }: { me: Me }) {
  return (
    <button type="button" aria-label="Account menu" className="size-10 rounded-full bg-surface-overlay">
      {me.firstName.slice(0, 1)}
    </button>
  );
}
