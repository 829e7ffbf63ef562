import {
  type BundleTicket,
  type CheckInBundle,
  type CheckInResult,
  decodeTicketQr,
  isShortCode,
  normalizeShortCode,
} from '../../../../../contracts/tickets';
import type { LocalAdmission } from './offline-store';

export type OfflineDecision = CheckInResult & { ticketId?: string };

/**
 * Decides a scan with no network, as the server would: the QR's signature checked against the bundle's key, the
 * ticket looked up in the bundle (or by its short code), refused when voided, unknown or for another event, and
 * 'already checked in' when the bundle or this device says so. `verify` checks a signature.
 */
export async function decideOffline(
  code: string,
  eventId: string,
  bundle: CheckInBundle,
  admissions: LocalAdmission[],
  verify: (publicKey: string, payload: Uint8Array, signature: Uint8Array) => Promise<boolean>,
): Promise<OfflineDecision> {
  let ticket: BundleTicket | undefined;
  const typed = normalizeShortCode(code);
  if (isShortCode(typed)) {
    ticket = bundle.tickets.find((t) => t.code === typed);
    if (!ticket) return { outcome: 'unknown' };
  } else {
    const signed = decodeTicketQr(code);
    if (!signed || !(await verify(bundle.publicKey, signed.payload, signed.signature))) return { outcome: 'unknown' };
    if (signed.claim.eventId !== eventId) return { outcome: 'wrong_event' };
    if (bundle.voided.includes(signed.claim.ticketId)) return { outcome: 'void' };
    ticket = bundle.tickets.find((t) => t.id === signed.claim.ticketId && t.number === signed.claim.number);
    if (!ticket) return { outcome: 'unknown' };
  }
  const shown = { number: ticket.number, of: ticket.of, holderName: ticket.holderName };
  const here = admissions.find((a) => a.ticketId === ticket.id);
  if (here) return { outcome: 'already_checked_in', ticket: shown, checkedInAt: here.at, by: here.by };
  if (ticket.checkedInAt) {
    return {
      outcome: 'already_checked_in',
      ticket: shown,
      checkedInAt: ticket.checkedInAt,
      by: ticket.by ?? undefined,
    };
  }
  return { outcome: 'admitted', ticket: shown, ticketId: ticket.id };
}
