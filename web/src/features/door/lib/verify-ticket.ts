import { fromBase64Url } from '../../../../../contracts/tickets';

type Noble = typeof import('@noble/ed25519');
let noble: Promise<Noble> | undefined;

/** Whether WebCrypto has Ed25519 here; if not, loads @noble/ed25519 now, while there is a network. */
export async function prepareVerifier(): Promise<void> {
  try {
    await crypto.subtle.importKey('raw', new Uint8Array(32), { name: 'Ed25519' }, false, ['verify']);
  } catch {
    noble ??= import('@noble/ed25519');
    await noble.catch(() => {
      noble = undefined;
    });
  }
}

/**
 * Checks a ticket's Ed25519 signature against the bundle's public key, on the device: WebCrypto's Ed25519 where
 * the browser has it, else @noble/ed25519 (loaded only then).
 */
export async function verifyTicketSignature(
  publicKey: string,
  payload: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  const key = fromBase64Url(publicKey);
  if (key?.length !== 32) return false;
  const keyBytes = new Uint8Array(key);
  const signatureBytes = new Uint8Array(signature);
  const payloadBytes = new Uint8Array(payload);
  try {
    const cryptoKey = await crypto.subtle.importKey('raw', keyBytes, { name: 'Ed25519' }, false, ['verify']);
    return await crypto.subtle.verify({ name: 'Ed25519' }, cryptoKey, signatureBytes, payloadBytes);
  } catch {
    // No Ed25519 in this browser's WebCrypto.
    noble ??= import('@noble/ed25519');
    const ed = await noble;
    try {
      return await ed.verifyAsync(signatureBytes, payloadBytes, keyBytes);
    } catch {
      return false;
    }
  }
}
