/**
 * `npm audit --omit=dev`: no high or critical vulnerability in what ships. Exits 1 when there is one,
 * naming the package, the advisory and the fix npm proposes. When the registry cannot answer audits
 * (offline, or a mirror without the audit endpoint) it says so plainly and exits 3 with `unavailable`,
 * which run-hard.ts reports as 'n/a', so that a missing network is not mistaken for a clean bill of health
 * and does not fail the run either.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

interface AuditReport {
  error?: { summary?: string };
  message?: string;
  statusCode?: number;
  vulnerabilities?: Record<
    string,
    { severity: string; via: Array<string | { title?: string; url?: string }>; fixAvailable: unknown; range?: string }
  >;
  metadata?: { vulnerabilities?: Record<string, number> };
}

const ROOT = path.resolve(import.meta.dirname, '../../..');
const RESULTS = path.join(import.meta.dirname, 'results', 'audit.json');

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
let report: AuditReport = {};
try {
  report = JSON.parse(run.stdout || '{}') as AuditReport;
} catch {
  report = { message: run.stderr || 'npm audit printed no JSON' };
}

await mkdir(path.dirname(RESULTS), { recursive: true });
if (!report.metadata?.vulnerabilities) {
  const reason = report.message ?? report.error?.summary ?? run.stderr.trim().split('\n').pop() ?? 'unknown';
  console.log(
    `npm audit --omit=dev: unavailable (${reason}); run it where the npm registry's audit endpoint is reachable`,
  );
  await writeFile(
    RESULTS,
    `${JSON.stringify({ date: new Date().toISOString(), status: 'unavailable', reason }, null, 2)}\n`,
  );
  process.exit(3);
}

const counts = report.metadata.vulnerabilities;
const serious = Object.entries(report.vulnerabilities ?? {}).filter(([, v]) =>
  ['high', 'critical'].includes(v.severity),
);
for (const [name, v] of serious) {
  const via = v.via.map((x) => (typeof x === 'string' ? x : `${x.title ?? ''} ${x.url ?? ''}`.trim())).join('; ');
  console.log(`${v.severity.toUpperCase()} ${name} ${v.range ?? ''}: ${via}; fix: ${JSON.stringify(v.fixAvailable)}`);
}
console.log(`npm audit --omit=dev: ${JSON.stringify(counts)}`);
await writeFile(
  RESULTS,
  `${JSON.stringify({ date: new Date().toISOString(), status: serious.length ? 'failed' : 'ok', counts, serious: serious.map(([n]) => n) }, null, 2)}\n`,
);
process.exit(serious.length ? 1 : 0);
