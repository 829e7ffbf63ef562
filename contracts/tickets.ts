import { z } from 'zod';

/**
 * Tickets and check-in: the API's shapes, the short-code alphabet and the signed QR payload. The server signs
 * (server/features/tickets/signing.ts); a scanner verifies offline with the bundle's public key, reading the
 * payload with the same functions.
 */

/** A ticket's short code: 10 characters without look-alikes (no 0/O, 1/I/L). Migration 0016 draws from it. */
export const TICKET_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const TICKET_CODE_LENGTH = 10;
const SHORT_CODE = new RegExp(`^[${TICKET_CODE_ALPHABET}]{${TICKET_CODE_LENGTH}}$`);

/** A typed short code as stored: upper case, without the spaces and dashes people type between groups. */
export function normalizeShortCode(typed: string): string {
  return typed.replace(/[\s-]/g, '').toUpperCase();
}

export function isShortCode(value: string): boolean {
  return SHORT_CODE.test(value);
}

/** '7KQ4M-XW2PA': the short code as shown, in two groups of five. */
export function formatShortCode(code: string): string {
  return code.length === TICKET_CODE_LENGTH ? `${code.slice(0, 5)}-${code.slice(5)}` : code;
}

// ---------------------------------------------------------------------------
// The QR payload: version (1 byte), ticket id (16), event id (16), number (2, big-endian), then the Ed25519
// signature (64) of those 35 bytes; the QR holds them as base64url (132 characters).
// ---------------------------------------------------------------------------

export const TICKET_PAYLOAD_VERSION = 1;
const PAYLOAD_LENGTH = 35;
const SIGNATURE_LENGTH = 64;

export interface TicketClaim {
  ticketId: string;
  eventId: string;
  number: number;
}

export interface SignedTicket {
  claim: TicketClaim;
  /** The bytes that were signed. */
  payload: Uint8Array;
  signature: Uint8Array;
}

function uuidBytes(uuid: string): Uint8Array {
  const hex = uuid.replace(/-/g, '');
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function bytesUuid(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The 35 bytes a ticket's signature covers. */
export function encodeTicketClaim(claim: TicketClaim): Uint8Array {
  const bytes = new Uint8Array(PAYLOAD_LENGTH);
  bytes[0] = TICKET_PAYLOAD_VERSION;
  bytes.set(uuidBytes(claim.ticketId), 1);
  bytes.set(uuidBytes(claim.eventId), 17);
  bytes[33] = (claim.number >> 8) & 0xff;
  bytes[34] = claim.number & 0xff;
  return bytes;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let j = 0; j < chars; j++) out += BASE64URL[(n >> (18 - 6 * j)) & 63];
  }
  return out;
}

/** undefined when `text` is not base64url. */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const bytes = new Uint8Array(Math.floor((text.length * 6) / 8));
  let buffer = 0;
  let bits = 0;
  let at = 0;
  for (const char of text) {
    buffer = (buffer << 6) | BASE64URL.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (buffer >> bits) & 0xff;
    }
  }
  return bytes;
}

/** The QR's text for a claim and its signature. */
export function encodeTicketQr(payload: Uint8Array, signature: Uint8Array): string {
  const bytes = new Uint8Array(payload.length + signature.length);
  bytes.set(payload);
  bytes.set(signature, payload.length);
  return toBase64Url(bytes);
}

/** Reads a QR's text; undefined when it is not a ticket of a version this code knows (unverified yet). */
export function decodeTicketQr(text: string): SignedTicket | undefined {
  const bytes = fromBase64Url(text.trim());
  if (!bytes || bytes.length !== PAYLOAD_LENGTH + SIGNATURE_LENGTH || bytes[0] !== TICKET_PAYLOAD_VERSION) {
    return undefined;
  }
  const payload = bytes.slice(0, PAYLOAD_LENGTH);
  return {
    claim: {
      ticketId: bytesUuid(payload.slice(1, 17)),
      eventId: bytesUuid(payload.slice(17, 33)),
      number: ((payload[33] ?? 0) << 8) | (payload[34] ?? 0),
    },
    payload,
    signature: bytes.slice(PAYLOAD_LENGTH),
  };
}

// ---------------------------------------------------------------------------
// API
// ---------------------------------------------------------------------------

export const ticketStatusSchema = z.enum(['valid', 'checked_in', 'void']);
export type TicketStatus = z.infer<typeof ticketStatusSchema>;

/** One seat of a paid booking, as its holder sees it. */
export const myTicketSchema = z.object({
  id: z.uuid(),
  bookingId: z.uuid(),
  eventId: z.uuid(),
  number: z.number().int(),
  /** The booking's quantity: 'Ticket {number} of {of}'. */
  of: z.number().int(),
  /** The short code, for typing at the door. */
  code: z.string(),
  /** The QR's text: the signed payload (decodeTicketQr). */
  qr: z.string(),
  status: ticketStatusSchema,
  checkedInAt: z.string().nullable(),
});
export type MyTicket = z.infer<typeof myTicketSchema>;

/** GET /api/me/tickets */
export const myTicketsSchema = z.object({
  items: z.array(myTicketSchema),
  /** The app's time zone (APP_TIMEZONE): 'Checked in at …' is said in it. */
  timeZone: z.string(),
});
export type MyTickets = z.infer<typeof myTicketsSchema>;

/**
 * POST /api/check-in. `code` is a QR's text or a short code (typed, or typed by a USB scanner). Its messages are
 * keys (contracts/i18n: door), answered in the request's language.
 */
export const checkInBodySchema = z.strictObject({
  eventId: z.uuid({ message: 'door.unknownEvent' }),
  code: z.string().trim().min(1, { message: 'door.enterCode' }).max(400, { message: 'door.unknown' }),
});
export type CheckInBody = z.infer<typeof checkInBodySchema>;

export const checkInOutcomeSchema = z.enum(['admitted', 'already_checked_in', 'wrong_event', 'void', 'unknown']);
export type CheckInOutcome = z.infer<typeof checkInOutcomeSchema>;

export const checkInTicketSchema = z.object({
  number: z.number().int(),
  of: z.number().int(),
  holderName: z.string(),
});

export const checkInResultSchema = z.object({
  outcome: checkInOutcomeSchema,
  ticket: checkInTicketSchema.optional(),
  /** When it was (first) checked in: ISO timestamp. */
  checkedInAt: z.string().optional(),
  /** Who checked it in (their name). */
  by: z.string().optional(),
});
export type CheckInResult = z.infer<typeof checkInResultSchema>;

export const checkInEventParamsSchema = z.object({ eventId: z.string().max(200) });

/** A ticket as a scanner keeps it offline. */
export const bundleTicketSchema = z.object({
  id: z.uuid(),
  code: z.string(),
  number: z.number().int(),
  of: z.number().int(),
  holderName: z.string(),
  /** Set when it was already checked in when the bundle was made. */
  checkedInAt: z.string().nullable(),
  by: z.string().nullable(),
});
export type BundleTicket = z.infer<typeof bundleTicketSchema>;

/** GET /api/check-in/:eventId/bundle: what a scanner needs to admit people with no network (ETag'd). */
export const checkInBundleSchema = z.object({
  eventId: z.uuid(),
  title: z.string(),
  /** The Ed25519 public key, raw 32 bytes as base64url. */
  publicKey: z.string(),
  /** Tickets that may be admitted (checked in or not). */
  tickets: z.array(bundleTicketSchema),
  /** Ids of tickets whose signature is good but that are refunded or cancelled. */
  voided: z.array(z.uuid()),
  /** When the bundle was made (ISO). */
  generatedAt: z.string(),
});
export type CheckInBundle = z.infer<typeof checkInBundleSchema>;

/** Most scans one sync sends. */
export const MAX_SYNC_SCANS = 500;

/** POST /api/check-in/:eventId/sync: scans a device made offline, each with the nonce it gave it. */
export const checkInSyncBodySchema = z.strictObject({
  scans: z
    .array(
      z.strictObject({
        nonce: z.uuid(),
        ticketId: z.uuid(),
        /** When the device admitted it (ISO). */
        scannedAt: z.iso.datetime({ offset: true }),
      }),
    )
    .min(1)
    .max(MAX_SYNC_SCANS),
});
export type CheckInSyncBody = z.infer<typeof checkInSyncBodySchema>;

export const checkInSyncResultSchema = z.object({
  results: z.array(
    z.object({
      nonce: z.uuid(),
      /** admitted: the first admission; admitted_again: it had been admitted already (flagged 'Admitted twice'). */
      outcome: z.enum(['admitted', 'admitted_again', 'void', 'unknown']),
    }),
  ),
});
export type CheckInSyncResult = z.infer<typeof checkInSyncResultSchema>;

/** An event whose door the signed-in user may keep, with its counts. */
export const checkInEventSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  eventDate: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  /** Valid tickets (not voided). */
  sold: z.number().int(),
  checkedIn: z.number().int(),
});
export type CheckInEvent = z.infer<typeof checkInEventSchema>;

/** GET /api/check-in/events: admins get every event from today on; door staff the events granted to them. */
export const checkInEventsSchema = z.object({
  items: z.array(checkInEventSchema),
  /** The app's time zone (APP_TIMEZONE): the scanner says 'Already checked in at 19:42' in it. */
  timeZone: z.string(),
});
export type CheckInEvents = z.infer<typeof checkInEventsSchema>;
