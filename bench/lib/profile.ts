import { readFileSync } from 'node:fs';

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** Self time by package (node_modules/<name>), our bundle, node internals, GC, idle. */
  byPackage: Array<{ name: string; ms: number; percent: number }>;
  /** Self time by function, biggest first. */
  topFunctions: Array<{ name: string; ms: number; percent: number }>;
  /** Inclusive time of our own functions (dist/server/), biggest first. */
  ourInclusive: Array<{ name: string; ms: number; percent: number }>;
}

function packageOf(url: string): string {
  if (!url) return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 'node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? url);
  }
  if (url.includes('/dist/server/')) return 'eventry (dist/server/)';
  if (url.startsWith('node:')) return 'node internals';
  return url.slice(-40);
}

/** Summarises a V8 .cpuprofile (node --cpu-prof) by self and inclusive time. */
export function summariseProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const packages = new Map<string, number>();
  const functions = new Map<string, number>();
  const ours = new Map<string, number>();
  for (const [id, ms] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const special = ['(idle)', '(garbage collector)', '(program)'].includes(functionName);
    const pkg = special ? functionName : packageOf(url);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
    const fn = `${functionName || '(anonymous)'} ${pkg}${url ? `:${lineNumber + 1}` : ''}`;
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
    // Inclusive time for our functions: walk up once per distinct frame.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)?.callFrame;
      if (!frame?.url.includes('/dist/server/')) continue;
      const key = `${frame.functionName || '(anonymous)'}:${frame.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      ours.set(key, (ours.get(key) ?? 0) + ms);
    }
  }
  const list = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms: Math.round(ms), percent: Math.round((ms / total) * 1000) / 10 }));
  return {
    totalMs: Math.round(total),
    byPackage: list(packages),
    topFunctions: list(functions),
    ourInclusive: list(ours),
  };
}
