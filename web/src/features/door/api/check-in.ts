import type { CheckInResult, CheckInSyncBody, CheckInSyncResult } from '../../../../../contracts/tickets';
import { api } from '../../../lib/api-client';

/** POST /api/check-in: a QR's text or a short code, at this event's door. */
export function checkIn(eventId: string, code: string): Promise<CheckInResult> {
  return api.post<CheckInResult>('/api/check-in', { eventId, code });
}

/** POST /api/check-in/:eventId/sync: the scans this device made offline, each with its nonce. */
export function syncScans(eventId: string, scans: CheckInSyncBody['scans']): Promise<CheckInSyncResult> {
  return api.post<CheckInSyncResult>(`/api/check-in/${encodeURIComponent(eventId)}/sync`, { scans });
}
