import { createHash } from 'node:crypto';
import type pg from 'pg';
import { todayIn } from '../../../contracts/dates';
import { isUuid } from '../../../contracts/ids';
import {
  type CheckInBundle,
  type CheckInEvents,
  type CheckInResult,
  type CheckInSyncResult,
  decodeTicketQr,
  isShortCode,
  type MyTicket,
  normalizeShortCode,
  type TicketStatus,
} from '../../../contracts/tickets';
import type { Queryable } from '../../db/client';
import { ForbiddenError, NotFoundError } from '../../plugins/errors';
import {
  admitTicket,
  findBundleTickets,
  findCheckInEvent,
  findCheckInEvents,
  findTicketByCode,
  findTicketById,
  findTicketsOfBooking,
  findTicketsOfUser,
  isDoorStaff,
  type OfflineScan,
  recordOfflineScans,
  type TicketRow,
} from './repository';
import type { TicketSigner } from './signing';

export interface TicketsDeps {
  db: Queryable;
  pool: Pick<pg.Pool, 'connect'>;
  /** The signer, once its key is known (it may be read from the database: server/features/tickets/routes.ts). */
  signer: () => Promise<TicketSigner>;
  timeZone: string;
}

/** Who is at the door: the signed-in user. */
export interface DoorUser {
  id: string;
  name: string;
  role: 'user' | 'admin';
}

export interface TicketsService {
  /** The signer's public key (raw, base64url). */
  publicKey(): Promise<string>;
  myTickets(userId: string): Promise<MyTicket[]>;
  /** One booking's tickets with their QR texts (the confirmation email, the PDF). */
  ticketsOfBooking(bookingId: string): Promise<MyTicket[]>;
  /** Throws 404 for an unknown or deleted event, 403 unless the user may keep its door. */
  assertDoorAccess(user: DoorUser, eventId: string): Promise<{ id: string; title: string }>;
  checkInEvents(user: DoorUser): Promise<CheckInEvents>;
  checkIn(user: DoorUser, eventId: string, code: string): Promise<CheckInResult>;
  bundle(user: DoorUser, eventId: string): Promise<{ bundle: CheckInBundle; etag: string }>;
  sync(user: DoorUser, eventId: string, scans: OfflineScan[]): Promise<CheckInSyncResult>;
}

function statusOf(row: Pick<TicketRow, 'voidedAt' | 'checkedInAt'>): TicketStatus {
  if (row.voidedAt) return 'void';
  return row.checkedInAt ? 'checked_in' : 'valid';
}

export function createTicketsService({ db, pool, signer: loadSigner, timeZone }: TicketsDeps): TicketsService {
  const toMyTicket = (signer: TicketSigner, row: TicketRow): MyTicket => ({
    id: row.id,
    bookingId: row.bookingId,
    eventId: row.eventId,
    number: row.number,
    of: row.of,
    code: row.code,
    qr: signer.sign({ ticketId: row.id, eventId: row.eventId, number: row.number }),
    status: statusOf(row),
    checkedInAt: row.checkedInAt?.toISOString() ?? null,
  });

  /** The ticket a scanned or typed code names within the event, or the outcome that ends the scan. */
  async function resolve(eventId: string, code: string): Promise<TicketRow | 'wrong_event' | 'unknown'> {
    const typed = normalizeShortCode(code);
    if (isShortCode(typed)) return (await findTicketByCode(db, eventId, typed)) ?? 'unknown';
    // Anything else must be a QR of ours: a payload whose signature fails is unknown, whatever it claims.
    if (!decodeTicketQr(code)) return 'unknown';
    const claim = (await loadSigner()).verify(code);
    if (!claim) return 'unknown';
    if (claim.eventId !== eventId) return 'wrong_event';
    const row = await findTicketById(db, claim.ticketId);
    return row && row.eventId === eventId && row.number === claim.number ? row : 'unknown';
  }

  async function assertDoorAccess(user: DoorUser, eventId: string) {
    // A user who keeps no door of that id learns nothing of it, not even whether it exists.
    if (user.role !== 'admin' && !(isUuid(eventId) && (await isDoorStaff(db, user.id, eventId)))) {
      throw new ForbiddenError('doorStaff.notDoorStaff');
    }
    const event = isUuid(eventId) ? await findCheckInEvent(db, eventId) : undefined;
    if (!event || event.isDeleted) throw new NotFoundError('door.eventUnavailable');
    return { id: event.id, title: event.title };
  }

  return {
    async publicKey() {
      return (await loadSigner()).publicKey;
    },

    async myTickets(userId) {
      const signer = await loadSigner();
      return (await findTicketsOfUser(db, userId)).map((row) => toMyTicket(signer, row));
    },

    async ticketsOfBooking(bookingId) {
      const signer = await loadSigner();
      return (await findTicketsOfBooking(db, bookingId)).map((row) => toMyTicket(signer, row));
    },

    assertDoorAccess,

    async checkInEvents(user) {
      const rows = await findCheckInEvents(db, { id: user.id, isAdmin: user.role === 'admin' }, todayIn(timeZone));
      return { items: rows.map(({ isDeleted: _deleted, ...event }) => event), timeZone };
    },

    async checkIn(user, eventId, code) {
      await assertDoorAccess(user, eventId);
      const found = await resolve(eventId, code);
      if (typeof found === 'string') return { outcome: found };
      const ticket = { number: found.number, of: found.of, holderName: found.holderName };
      if (found.voidedAt) return { outcome: 'void', ticket };
      const admittedAt = found.checkedInAt ? undefined : await admitTicket(db, found.id, user);
      if (admittedAt) return { outcome: 'admitted', ticket, checkedInAt: admittedAt.toISOString(), by: user.name };
      // Someone was first (maybe a moment ago, at another gate), or it was voided meanwhile: read it as it is now.
      const now = (await findTicketById(db, found.id)) ?? found;
      if (now.voidedAt) return { outcome: 'void', ticket };
      return {
        outcome: 'already_checked_in',
        ticket,
        checkedInAt: now.checkedInAt?.toISOString(),
        by: now.checkedInByName ?? undefined,
      };
    },

    async bundle(user, eventId) {
      const event = await assertDoorAccess(user, eventId);
      const signer = await loadSigner();
      const rows = await findBundleTickets(db, eventId);
      const tickets = rows
        .filter((row) => !row.voided)
        .map((row) => ({
          id: row.id,
          code: row.code,
          number: row.number,
          of: row.of,
          holderName: row.holderName,
          checkedInAt: row.checkedInAt?.toISOString() ?? null,
          by: row.by,
        }));
      const voided = rows.filter((row) => row.voided).map((row) => row.id);
      // The ETag covers the content, not the moment it was read.
      const etag = `"${createHash('sha256')
        .update(JSON.stringify([event.title, signer.publicKey, tickets, voided]))
        .digest('base64url')
        .slice(0, 27)}"`;
      return {
        bundle: {
          eventId: event.id,
          title: event.title,
          publicKey: signer.publicKey,
          tickets,
          voided,
          generatedAt: new Date().toISOString(),
        },
        etag,
      };
    },

    async sync(user, eventId, scans) {
      await assertDoorAccess(user, eventId);
      const outcomes = await recordOfflineScans(pool, eventId, user, scans);
      return { results: scans.map((scan) => ({ nonce: scan.nonce, outcome: outcomes.get(scan.nonce) ?? 'unknown' })) };
    },
  };
}
