import { describe, expect, it } from 'vitest';
import {
  type CheckInBundle,
  encodeTicketClaim,
  encodeTicketQr,
  type TicketClaim,
  toBase64Url,
} from '../../../../../contracts/tickets';
import { decideOffline } from './decide-offline';
import { verifyTicketSignature } from './verify-ticket';

const EVENT = '7b0e8f2a-1111-4c3d-9e8f-0123456789ab';
const OTHER_EVENT = '7b0e8f2a-2222-4c3d-9e8f-0123456789ab';
const T1 = '0f9c1d2e-aaaa-4b5c-8d7e-000000000001';
const T2 = '0f9c1d2e-aaaa-4b5c-8d7e-000000000002';
const VOIDED = '0f9c1d2e-aaaa-4b5c-8d7e-000000000003';

const keys = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
const publicKey = toBase64Url(new Uint8Array(await crypto.subtle.exportKey('raw', keys.publicKey)));

async function qr(claim: TicketClaim, key = keys.privateKey): Promise<string> {
  const payload = encodeTicketClaim(claim);
  const signature = new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, key, new Uint8Array(payload)));
  return encodeTicketQr(payload, signature);
}

const bundle: CheckInBundle = {
  eventId: EVENT,
  title: 'Jazz night',
  publicKey,
  tickets: [
    { id: T1, code: 'ABCDEFGHJK', number: 1, of: 2, holderName: 'Omar Hassan', checkedInAt: null, by: null },
    {
      id: T2,
      code: 'MNPQRSTUVW',
      number: 2,
      of: 2,
      holderName: 'Omar Hassan',
      checkedInAt: '2026-11-27T17:42:00.000Z',
      by: 'Mona',
    },
  ],
  voided: [VOIDED],
  generatedAt: '2026-11-27T17:00:00.000Z',
};

const decide = (code: string, admissions = [] as Parameters<typeof decideOffline>[3]) =>
  decideOffline(code, EVENT, bundle, admissions, verifyTicketSignature);

describe('deciding a scan offline', () => {
  it('admits a signed QR of a ticket in the bundle, and names the ticket to queue', async () => {
    expect(await decide(await qr({ ticketId: T1, eventId: EVENT, number: 1 }))).toEqual({
      outcome: 'admitted',
      ticket: { number: 1, of: 2, holderName: 'Omar Hassan' },
      ticketId: T1,
    });
  });

  it('admits a typed short code, however it is typed', async () => {
    expect((await decide('abcde-fghjk')).outcome).toBe('admitted');
    expect((await decide('ZZZZZZZZZZ')).outcome).toBe('unknown');
  });

  it('refuses a QR with one flipped byte, or signed by another key', async () => {
    const good = await qr({ ticketId: T1, eventId: EVENT, number: 1 });
    const flipped = `${good.slice(0, 60)}${good[60] === 'A' ? 'B' : 'A'}${good.slice(61)}`;
    expect((await decide(flipped)).outcome).toBe('unknown');
    const other = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    expect((await decide(await qr({ ticketId: T1, eventId: EVENT, number: 1 }, other.privateKey))).outcome).toBe(
      'unknown',
    );
    expect((await decide('not a ticket')).outcome).toBe('unknown');
  });

  it('refuses another event’s ticket, a voided one, and one the bundle does not know', async () => {
    expect((await decide(await qr({ ticketId: T1, eventId: OTHER_EVENT, number: 1 }))).outcome).toBe('wrong_event');
    expect((await decide(await qr({ ticketId: VOIDED, eventId: EVENT, number: 1 }))).outcome).toBe('void');
    const unknown = '0f9c1d2e-aaaa-4b5c-8d7e-000000000009';
    expect((await decide(await qr({ ticketId: unknown, eventId: EVENT, number: 1 }))).outcome).toBe('unknown');
  });

  it('says when and by whom a ticket was checked in: in the bundle, or on this device', async () => {
    expect(await decide('MNPQRSTUVW')).toMatchObject({
      outcome: 'already_checked_in',
      checkedInAt: '2026-11-27T17:42:00.000Z',
      by: 'Mona',
    });
    const here = [{ ticketId: T1, eventId: EVENT, at: '2026-11-27T18:00:00.000Z', by: 'Karim' }];
    expect(await decide('ABCDEFGHJK', here)).toMatchObject({ outcome: 'already_checked_in', by: 'Karim' });
  });
});
