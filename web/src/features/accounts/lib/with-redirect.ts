import { useSearchParams } from 'react-router';

/**
 * `path` (/login, /signup) with this page's `?redirect=`: a visitor sent to sign in on the way to a page
 * (booking tickets, say) who signs up instead, or goes back to sign in, still ends on that page.
 */
export function useWithRedirect(path: string): string {
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  return redirect ? `${path}?${new URLSearchParams({ redirect })}` : path;
}
