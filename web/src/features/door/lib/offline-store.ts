import type { CheckInBundle } from '../../../../../contracts/tickets';

/**
 * What a door device keeps in IndexedDB, so a reload or a lost network loses nothing: each event's bundle (with
 * its ETag and the app's time zone), the tickets this device admitted, and the scans made offline that wait to
 * be sent (each with its nonce, so sending one twice records it once).
 */

export interface KeptBundle {
  eventId: string;
  etag: string;
  timeZone: string;
  bundle: CheckInBundle;
}

export interface LocalAdmission {
  ticketId: string;
  eventId: string;
  /** ISO */
  at: string;
  by: string;
}

export interface QueuedScan {
  nonce: string;
  eventId: string;
  ticketId: string;
  scannedAt: string;
}

const DB_NAME = 'eventry-door';
const STORES = ['bundles', 'admissions', 'queue'] as const;
type Store = (typeof STORES)[number];

let opened: Promise<IDBDatabase> | undefined;

function open(): Promise<IDBDatabase> {
  opened ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore('bundles', { keyPath: 'eventId' });
      db.createObjectStore('admissions', { keyPath: 'ticketId' });
      db.createObjectStore('queue', { keyPath: 'nonce' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  }).catch((error: unknown) => {
    opened = undefined;
    throw error;
  });
  return opened;
}

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run<T>(store: Store, mode: IDBTransactionMode, work: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  const transaction = db.transaction(store, mode);
  const result = await promised(work(transaction.objectStore(store)));
  await new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
  return result;
}

export const doorStore = {
  getBundle: (eventId: string) => run<KeptBundle | undefined>('bundles', 'readonly', (s) => s.get(eventId)),
  putBundle: (kept: KeptBundle) => run('bundles', 'readwrite', (s) => s.put(kept)),
  async admissions(eventId: string): Promise<LocalAdmission[]> {
    const all = await run<LocalAdmission[]>('admissions', 'readonly', (s) => s.getAll());
    return all.filter((a) => a.eventId === eventId);
  },
  putAdmission: (admission: LocalAdmission) => run('admissions', 'readwrite', (s) => s.put(admission)),
  async queue(eventId: string): Promise<QueuedScan[]> {
    const all = await run<QueuedScan[]>('queue', 'readonly', (s) => s.getAll());
    return all.filter((scan) => scan.eventId === eventId).sort((a, b) => a.scannedAt.localeCompare(b.scannedAt));
  },
  enqueue: (scan: QueuedScan) => run('queue', 'readwrite', (s) => s.put(scan)),
  async dequeue(nonces: string[]): Promise<void> {
    for (const nonce of nonces) await run('queue', 'readwrite', (s) => s.delete(nonce));
  },
};
