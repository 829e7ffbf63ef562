import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { chunk } from '../lib/chunk';
import { mountToasterNow } from './providers';

/**
 * The error codes better-auth appends to the verification callback (/?error=…) for a bad link: a wrong or
 * tampered token, an expired one, or an account that no longer matches it.
 */
const BAD_LINK_ERRORS = new Set(['invalid_token', 'token_expired', 'user_not_found', 'invalid_user']);

/**
 * An emailed verification link ends on / (server/features/accounts/routes.ts, VERIFIED_CALLBACK): say how it
 * went, then drop the query so a refresh or a shared address does not say it again. A bad link arrives as
 * ?error=INVALID_TOKEN and the like; success as ?verified=1 (the server's callback URL). The error wins,
 * because better-auth appends it to that URL.
 */
export function EmailVerificationResult() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (pathname !== '/') return;
    const params = new URLSearchParams(search);
    const error = params.get('error');
    const result =
      error !== null && BAD_LINK_ERRORS.has(error.toLowerCase())
        ? 'invalid'
        : params.get('verified') === '1'
          ? 'verified'
          : null;
    if (!result) return;
    void chunk(() => import('./app-toasts')).then(({ toastVerificationResult }) => {
      toastVerificationResult(result);
      // Landing from an email there has been no interaction yet, which the toaster otherwise waits for.
      mountToasterNow();
    });
    params.delete('error');
    params.delete('verified');
    const rest = params.toString();
    navigate({ pathname, search: rest ? `?${rest}` : '' }, { replace: true });
  }, [pathname, search, navigate]);
  return null;
}
