import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useI18n } from '../../../lib/i18n';
import { getQrDetector } from '../lib/qr-detector';

/** The same code seen again within this time is the same ticket still held up: not sent again. */
const SAME_CODE_MS = 3_000;
const SCAN_EVERY_MS = 150;

type CameraState = 'off' | 'starting' | 'on' | 'unavailable' | 'denied';

/**
 * Reads QR codes from the camera (the back one on a phone) and hands each new one to `onCode`; a code held in
 * front of the camera is handed over again only after a pause, so a bad one never loops.
 */
export function CameraScanner({ onCode, paused }: { onCode: (code: string) => void; paused: boolean }) {
  const { t } = useI18n();
  const [wanted, setWanted] = useState(false);
  const [state, setState] = useState<CameraState>('off');
  const video = useRef<HTMLVideoElement>(null);
  const last = useRef<{ code: string; at: number }>({ code: '', at: 0 });
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const onCodeRef = useRef(onCode);
  onCodeRef.current = onCode;

  useEffect(() => {
    if (!wanted) {
      setState((now) => (now === 'on' || now === 'starting' ? 'off' : now));
      return;
    }
    setState('starting');
    let stream: MediaStream | undefined;
    let timer: number | undefined;
    let stopped = false;
    void (async () => {
      try {
        const [detector, media] = await Promise.all([
          getQrDetector(),
          navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false }),
        ]);
        stream = media;
        if (stopped || !video.current) return;
        video.current.srcObject = media;
        await video.current.play();
        setState('on');
        const tick = async () => {
          if (stopped) return;
          const element = video.current;
          if (element && !pausedRef.current && element.readyState >= 2) {
            try {
              const [found] = await detector.detect(element);
              const code = found?.rawValue;
              const now = Date.now();
              if (code && (code !== last.current.code || now - last.current.at > SAME_CODE_MS)) {
                last.current = { code, at: now };
                onCodeRef.current(code);
              }
            } catch {
              // A frame the decoder could not read: the next one will do.
            }
          }
          if (!stopped) timer = window.setTimeout(() => void tick(), SCAN_EVERY_MS);
        };
        void tick();
      } catch (error) {
        if (stopped) return;
        setState((error as Error).name === 'NotAllowedError' ? 'denied' : 'unavailable');
        setWanted(false);
      }
    })();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [wanted]);

  const running = state === 'starting' || state === 'on';
  return (
    <section aria-label={t('door.startCamera')} className="mx-auto flex w-full max-w-md flex-col gap-3">
      <div className="relative aspect-[4/3] w-full overflow-hidden rounded-xl border border-border bg-black">
        <video
          ref={video}
          muted
          playsInline
          aria-label={t('door.cameraLabel')}
          className={running ? 'size-full object-cover' : 'hidden'}
        />
        {state === 'starting' ? (
          <p className="absolute inset-0 grid place-items-center text-sm text-white/80">{t('door.cameraStarting')}</p>
        ) : null}
        {!running ? (
          <p className="absolute inset-0 grid place-items-center p-4 text-center text-sm text-white/80">
            {t(
              state === 'denied'
                ? 'door.cameraDenied'
                : state === 'unavailable'
                  ? 'door.cameraUnavailable'
                  : 'door.ticketCodeHint',
            )}
          </p>
        ) : null}
      </div>
      <Button variant={running ? 'secondary' : 'primary'} onClick={() => setWanted(!running)}>
        {t(running ? 'door.stopCamera' : 'door.startCamera')}
      </Button>
    </section>
  );
}
