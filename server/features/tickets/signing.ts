import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import {
  decodeTicketQr,
  encodeTicketClaim,
  encodeTicketQr,
  fromBase64Url,
  type TicketClaim,
  toBase64Url,
} from '../../../contracts/tickets';

/**
 * The key that signs tickets' QR payloads (Ed25519). Given as TICKET_SIGNING_KEY, or generated on the first
 * start and kept in the database (app_secrets), so that every process signs with the same key. Scanners get the public key in the check-in bundle and verify
 * offline.
 */
export interface TicketSigner {
  /** The raw 32-byte public key, base64url. */
  publicKey: string;
  /** The QR text of a ticket. */
  sign(claim: TicketClaim): string;
  /** The claim of a QR text whose signature is this key's; undefined for anything else. */
  verify(qr: string): TicketClaim | undefined;
}

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * A private key from TICKET_SIGNING_KEY's text: a PEM (PKCS#8), or the 32-byte seed as base64 or base64url.
 * Throws a one-line error otherwise.
 */
export function parseTicketSigningKey(text: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) {
    const key = createPrivateKey(trimmed);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error('TICKET_SIGNING_KEY must be an Ed25519 key');
    return key;
  }
  const seed = fromBase64Url(trimmed.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
  if (seed?.length !== 32) {
    throw new Error('TICKET_SIGNING_KEY must be an Ed25519 private key (PEM) or its 32-byte seed in base64');
  }
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

export function createTicketSigner(privateKey: KeyObject): TicketSigner {
  const publicKey = createPublicKey(privateKey);
  const raw = publicKey.export({ format: 'jwk' }).x;
  if (!raw) throw new Error('not an Ed25519 key');
  return {
    publicKey: raw,
    sign(claim) {
      const payload = encodeTicketClaim(claim);
      return encodeTicketQr(payload, sign(null, payload, privateKey));
    },
    verify(qr) {
      const decoded = decodeTicketQr(qr);
      if (!decoded) return undefined;
      return verify(null, decoded.payload, publicKey, decoded.signature) ? decoded.claim : undefined;
    },
  };
}

/** A new key's seed, base64url (what TICKET_SIGNING_KEY takes). */
export function newTicketSigningSeed(): string {
  const der = generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' });
  return toBase64Url(der.subarray(PKCS8_ED25519_PREFIX.length));
}
