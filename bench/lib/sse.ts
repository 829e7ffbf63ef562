import http from 'node:http';
import { rssKb, sleep } from './processes';

export interface SseResult {
  wanted: number;
  connected: number;
  failed: number;
  firstFailure: string | undefined;
  connectMs: number;
  appRssBeforeKb: number;
  appRssAfterKb: number;
  appRssAfterCloseKb: number;
  kbPerClient: number | undefined;
}

/** Opens `count` concurrent /api/events/live streams, holds them, and measures the app's RSS per client. */
export async function holdLiveClients(
  baseUrl: string,
  appPid: number,
  count: number,
  timeoutMs: number,
): Promise<SseResult> {
  const requests: http.ClientRequest[] = [];
  let connected = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  await sleep(1000);
  const appRssBeforeKb = rssKb(appPid) ?? 0;
  const started = performance.now();

  // Live visitors come from many addresses, and the app holds at most 1,000 streams per address
  // (server/plugins/notifications.ts): on loopback the clients take turns among ten source addresses.
  const loopback = new URL(baseUrl).hostname === '127.0.0.1';
  let opened = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      const localAddress = loopback ? `127.0.0.${11 + (opened++ % 10)}` : undefined;
      const request = http.get(
        `${baseUrl}/api/events/live`,
        { agent: false, localAddress, headers: { accept: 'text/event-stream' } },
        (response) => {
          const type = String(response.headers['content-type'] ?? '');
          if (response.statusCode === 200 && type.includes('text/event-stream')) {
            connected += 1;
            response.on('data', () => {});
          } else {
            failed += 1;
            firstFailure ??= `status ${response.statusCode}, content-type ${type}`;
            response.resume();
          }
          resolve();
        },
      );
      request.on('error', (error) => {
        failed += 1;
        firstFailure ??= error.message;
        resolve();
      });
      requests.push(request);
    });

  try {
    const deadline = started + timeoutMs;
    // Batches keep the listen backlog from overflowing on a small machine.
    for (let i = 0; i < count && performance.now() < deadline; i += 100) {
      await Promise.race([
        Promise.all(Array.from({ length: Math.min(100, count - i) }, open)),
        sleep(Math.max(0, deadline - performance.now())),
      ]);
      if (i === 0 && connected === 0) break; // the endpoint is missing or broken: don't hammer it
    }
    const connectMs = performance.now() - started;
    await sleep(3000);
    const appRssAfterKb = rssKb(appPid) ?? 0;
    for (const request of requests) request.destroy();
    await sleep(1500);
    const appRssAfterCloseKb = rssKb(appPid) ?? 0;
    return {
      wanted: count,
      connected,
      failed,
      firstFailure,
      connectMs: Math.round(connectMs),
      appRssBeforeKb,
      appRssAfterKb,
      appRssAfterCloseKb,
      kbPerClient: connected > 0 ? Math.round(((appRssAfterKb - appRssBeforeKb) / connected) * 10) / 10 : undefined,
    };
  } finally {
    for (const request of requests) request.destroy();
  }
}
