import net from 'node:net';

/** What the stand-alone proofs of npm run test:hard (crash-safety, restarts, many-processes) share. */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A line of progress, after the time of day. */
export const log = (...args: unknown[]) => console.log(new Date().toISOString().slice(11, 19), ...args);

/** A TCP port nobody listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
