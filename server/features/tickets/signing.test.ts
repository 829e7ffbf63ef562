import { describe, expect, it } from 'vitest';
import {
  decodeTicketQr,
  encodeTicketClaim,
  formatShortCode,
  fromBase64Url,
  isShortCode,
  normalizeShortCode,
  TICKET_CODE_ALPHABET,
  toBase64Url,
} from '../../../contracts/tickets';
import { createTicketSigner, newTicketSigningSeed, parseTicketSigningKey } from './signing';

// RFC 8032, section 7.1, TEST 1: the seed and its public key.
const RFC_SEED_HEX = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const RFC_PUBLIC_HEX = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const claim = {
  ticketId: '0b6f3c1e-8a54-4c2e-9d0a-2f4b7e1c9a33',
  eventId: '5d1e7a90-3c2b-4f18-a6e4-8b9c0d1e2f3a',
  number: 2,
};

const signer = createTicketSigner(parseTicketSigningKey(Buffer.from(RFC_SEED_HEX, 'hex').toString('base64')));

describe('ticket signing', () => {
  it('takes the key as a base64 seed and derives its public key (RFC 8032 test 1)', () => {
    expect(Buffer.from(fromBase64Url(signer.publicKey) as Uint8Array).toString('hex')).toBe(RFC_PUBLIC_HEX);
  });

  it('signs deterministically: a fixed claim gives a fixed QR text (a vector for other scanners)', () => {
    const qr = signer.sign(claim);
    expect(qr).toHaveLength(132);
    expect(qr).toBe(signer.sign(claim));
    expect(
      Buffer.from(fromBase64Url(qr) as Uint8Array)
        .subarray(0, 35)
        .toString('hex'),
    ).toBe(`01${claim.ticketId.replaceAll('-', '')}${claim.eventId.replaceAll('-', '')}0002`);
    expect(signer.verify(qr)).toEqual(claim);
    expect(decodeTicketQr(qr)?.claim).toEqual(claim);
  });

  it('refuses a QR with any one byte flipped, in the payload or the signature', () => {
    const bytes = fromBase64Url(signer.sign(claim)) as Uint8Array;
    for (let i = 0; i < bytes.length; i++) {
      const forged = bytes.slice();
      forged[i] = (forged[i] ?? 0) ^ 0x01;
      expect(signer.verify(toBase64Url(forged)), `byte ${i}`).toBeUndefined();
    }
  });

  it("refuses another key's signature, truncated texts and garbage", () => {
    const other = createTicketSigner(parseTicketSigningKey(newTicketSigningSeed()));
    const qr = other.sign(claim);
    expect(other.verify(qr)).toEqual(claim);
    expect(signer.verify(qr)).toBeUndefined();
    for (const text of ['', 'abc', qr.slice(0, -4), `${qr}AA`, '!'.repeat(132), 'SELECT 1']) {
      expect(signer.verify(text)).toBeUndefined();
    }
  });

  it('takes the key as a PEM too, and refuses anything that is not an Ed25519 key', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(createTicketSigner(parseTicketSigningKey(pem)).publicKey).toHaveLength(43);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' });
    expect(() => parseTicketSigningKey(rsa.toString())).toThrow(/Ed25519/);
    expect(() => parseTicketSigningKey('too-short')).toThrow(/TICKET_SIGNING_KEY/);
  });

  it('round-trips base64url for every length', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
      expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
      expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    }
    expect(encodeTicketClaim(claim)).toHaveLength(35);
  });
});

describe('short codes', () => {
  it('use an alphabet of 31 characters without look-alikes', () => {
    expect(TICKET_CODE_ALPHABET).toHaveLength(31);
    expect(new Set(TICKET_CODE_ALPHABET).size).toBe(31);
    for (const lookAlike of '01OIL') expect(TICKET_CODE_ALPHABET).not.toContain(lookAlike);
  });

  it('are read as typed: any case, with spaces or a dash between groups', () => {
    expect(normalizeShortCode(' 7kq4m-xw2pa ')).toBe('7KQ4MXW2PA');
    expect(isShortCode('7KQ4MXW2PA')).toBe(true);
    expect(isShortCode('7KQ4MXW2P0')).toBe(false);
    expect(isShortCode('7KQ4MXW2P')).toBe(false);
    expect(formatShortCode('7KQ4MXW2PA')).toBe('7KQ4M-XW2PA');
  });
});
