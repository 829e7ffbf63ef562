import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CheckInBundle, CheckInResult } from '../../../../../contracts/tickets';
import { ApiError } from '../../../lib/api-client';
import { checkIn, syncScans } from '../api/check-in';
import { getBundle } from '../api/get-bundle';
import { checkInEventsKey } from '../api/get-check-in-events';
import { decideOffline } from './decide-offline';
import { doorStore, type LocalAdmission } from './offline-store';
import { getQrDetector } from './qr-detector';
import { prepareVerifier, verifyTicketSignature } from './verify-ticket';

/** A scan's answer as the page shows it; `offline` when this device decided it. */
export type ScanAnswer = (CheckInResult & { offline?: boolean }) | { outcome: 'error'; message: string };

const RETRY_MS = 10_000;
const MAX_SYNC = 500;

function isNetworkFailure(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0;
}

/**
 * The door of one event: checks a code in through the API, or, when the network is gone, on this device with
 * the bundle kept in IndexedDB (queued with a nonce and sent when the network is back: the 'online' event, and a
 * retry every 10 s). `name` is who is at the door (said by 'Already checked in … by').
 */
export function useDoor(eventId: string, name: string, timeZone: string | undefined) {
  const queryClient = useQueryClient();
  const [bundle, setBundle] = useState<CheckInBundle>();
  const [keptTimeZone, setKeptTimeZone] = useState<string>();
  const [waiting, setWaiting] = useState(0);
  const [offline, setOffline] = useState(() => typeof navigator !== 'undefined' && !navigator.onLine);
  const [syncing, setSyncing] = useState(false);
  const admissions = useRef<LocalAdmission[]>([]);
  const syncRunning = useRef(false);

  const refreshQueue = useCallback(async () => {
    setWaiting((await doorStore.queue(eventId)).length);
  }, [eventId]);

  const loadBundle = useCallback(async () => {
    const kept = await doorStore.getBundle(eventId).catch(() => undefined);
    if (kept) {
      setBundle(kept.bundle);
      setKeptTimeZone(kept.timeZone);
    }
    try {
      const fresh = await getBundle(eventId, kept?.etag);
      setOffline(false);
      if (fresh === 'unchanged') return;
      setBundle(fresh.bundle);
      await doorStore.putBundle({
        eventId,
        etag: fresh.etag,
        bundle: fresh.bundle,
        timeZone: timeZone ?? kept?.timeZone ?? 'Africa/Cairo',
      });
    } catch (error) {
      if (isNetworkFailure(error)) setOffline(true);
    }
  }, [eventId, timeZone]);

  const sync = useCallback(async () => {
    if (syncRunning.current) return;
    syncRunning.current = true;
    try {
      const queue = await doorStore.queue(eventId);
      if (queue.length === 0) return;
      setSyncing(true);
      for (let i = 0; i < queue.length; i += MAX_SYNC) {
        const batch = queue.slice(i, i + MAX_SYNC);
        await syncScans(
          eventId,
          batch.map(({ nonce, ticketId, scannedAt }) => ({ nonce, ticketId, scannedAt })),
        );
        await doorStore.dequeue(batch.map((scan) => scan.nonce));
      }
      setOffline(false);
      void queryClient.invalidateQueries({ queryKey: checkInEventsKey });
      void loadBundle();
    } catch (error) {
      if (isNetworkFailure(error)) setOffline(true);
    } finally {
      syncRunning.current = false;
      setSyncing(false);
      await refreshQueue();
    }
  }, [eventId, queryClient, loadBundle, refreshQueue]);

  useEffect(() => {
    let stopped = false;
    void (async () => {
      admissions.current = await doorStore.admissions(eventId).catch(() => []);
      if (stopped) return;
      await refreshQueue().catch(() => {});
      await loadBundle();
      await sync();
      // What a scan may need offline, fetched while there is a network: the QR decoder and a signature check.
      void prepareVerifier();
      void getQrDetector().catch(() => {});
    })();
    const goneOnline = () => {
      setOffline(false);
      void sync();
    };
    const goneOffline = () => setOffline(true);
    window.addEventListener('online', goneOnline);
    window.addEventListener('offline', goneOffline);
    // Sends what waits, and keeps the offline copy current (the ETag makes an unchanged one cost a 304).
    const timer = window.setInterval(() => {
      if (!navigator.onLine) return;
      void sync();
      void loadBundle();
    }, RETRY_MS);
    return () => {
      stopped = true;
      window.removeEventListener('online', goneOnline);
      window.removeEventListener('offline', goneOffline);
      window.clearInterval(timer);
    };
  }, [eventId, loadBundle, refreshQueue, sync]);

  const remember = useCallback(async (admission: LocalAdmission) => {
    admissions.current = [...admissions.current.filter((a) => a.ticketId !== admission.ticketId), admission];
    await doorStore.putAdmission(admission).catch(() => {});
  }, []);

  const decideHere = useCallback(
    async (code: string): Promise<ScanAnswer> => {
      if (!bundle) return { outcome: 'error', message: 'noBundle' };
      const decision = await decideOffline(code, eventId, bundle, admissions.current, verifyTicketSignature);
      if (decision.outcome === 'admitted' && decision.ticketId) {
        const scannedAt = new Date().toISOString();
        await remember({ ticketId: decision.ticketId, eventId, at: scannedAt, by: name });
        await doorStore.enqueue({ nonce: crypto.randomUUID(), eventId, ticketId: decision.ticketId, scannedAt });
        await refreshQueue();
      }
      const { ticketId: _id, ...answer } = decision;
      return { ...answer, offline: true };
    },
    [bundle, eventId, name, remember, refreshQueue],
  );

  const submit = useCallback(
    async (code: string): Promise<ScanAnswer> => {
      if (!navigator.onLine) {
        setOffline(true);
        return decideHere(code);
      }
      try {
        const result = await checkIn(eventId, code);
        setOffline(false);
        void queryClient.invalidateQueries({ queryKey: checkInEventsKey });
        return result;
      } catch (error) {
        if (isNetworkFailure(error)) {
          setOffline(true);
          return decideHere(code);
        }
        return { outcome: 'error', message: error instanceof ApiError ? error.message : 'scanFailed' };
      }
    },
    [eventId, decideHere, queryClient],
  );

  return { submit, bundle, waiting, offline, syncing, timeZone: timeZone ?? keptTimeZone, admissions };
}
