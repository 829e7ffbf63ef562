import { commonMessages } from '../../../contracts/messages/common';
import { ButtonLink } from '../components/ui/button';
import { useDocumentMeta } from '../components/ui/page';
import { useMe } from '../features/accounts/api/get-me';

export function NotFoundRoute() {
  useDocumentMeta('Page not found');
  const { data: me } = useMe();
  const isAdmin = me?.role === 'admin';
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-6 px-6 py-24 text-center">
      <p aria-hidden="true" className="text-8xl font-black text-accent">
        404
      </p>
      <h1 className="text-3xl font-bold tracking-wide">{commonMessages.notFound}</h1>
      <ButtonLink to={isAdmin ? '/admin' : '/'} size="lg">
        {isAdmin ? commonMessages.dashboard : commonMessages.backToHome}
      </ButtonLink>
    </div>
  );
}
