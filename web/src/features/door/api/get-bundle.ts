import type { CheckInBundle } from '../../../../../contracts/tickets';
import { ApiError } from '../../../lib/api-client';

/**
 * GET /api/check-in/:eventId/bundle with the ETag of the copy this device keeps: 'unchanged' when that copy is
 * still current (304). A network failure is an ApiError with status 0, as the API client's.
 */
export async function getBundle(
  eventId: string,
  etag: string | undefined,
): Promise<{ bundle: CheckInBundle; etag: string } | 'unchanged'> {
  let response: Response;
  try {
    response = await fetch(`/api/check-in/${encodeURIComponent(eventId)}/bundle`, {
      headers: { accept: 'application/json', ...(etag ? { 'if-none-match': etag } : {}) },
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Network error');
  }
  if (response.status === 304) return 'unchanged';
  if (!response.ok) throw new ApiError(response.status, 'HTTP_ERROR', `Request failed (${response.status})`);
  return { bundle: (await response.json()) as CheckInBundle, etag: response.headers.get('etag') ?? '' };
}
