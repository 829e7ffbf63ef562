import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface ChunkComposition {
  file: string;
  isEntry: boolean;
  /** Chunks loaded with it before anything renders (static imports). */
  imports: string[];
  gzipBytes: number;
  /** Each source group's estimated share of the chunk's gzip size, biggest first. */
  groups: Array<{ group: string; renderedBytes: number; estGzipKb: number }>;
}

/** node_modules/<package> (scoped too), else the first folders of the source path. */
function groupOf(id: string, root: string): string {
  const clean = id.replace(/^\0/, '').split('?')[0] ?? id;
  const nm = clean.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = clean.slice(nm + 'node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? clean);
  }
  const rel = path.relative(root, clean);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return clean.slice(0, 40);
  const parts = rel.split(path.sep);
  if (parts[0] === 'web' && parts[1] === 'src') return parts.slice(0, parts[2] === 'features' ? 4 : 3).join('/');
  return parts.slice(0, 2).join('/');
}

/**
 * Builds the web app in memory with the project's Vite config and reports what each initial chunk is
 * made of. Sizes per group are estimates: the group's share of the chunk's pre-minification code
 * applied to the chunk's real gzip size.
 */
export async function webComposition(root: string): Promise<ChunkComposition[]> {
  const { build } = await import('vite');
  const chunks: ChunkComposition[] = [];
  await build({
    configFile: path.join(root, 'vite.config.ts'),
    logLevel: 'silent',
    build: { write: false, outDir: path.join(root, '.tmp', 'bench-composition') },
    plugins: [
      {
        name: 'bench-composition',
        generateBundle(_options, bundle) {
          for (const chunk of Object.values(bundle)) {
            if (chunk.type !== 'chunk') continue;
            const gzipBytes = gzipSync(chunk.code, { level: 9 }).length;
            const sizes = new Map<string, number>();
            let total = 0;
            for (const [id, module] of Object.entries(chunk.modules)) {
              const group = groupOf(id, root);
              sizes.set(group, (sizes.get(group) ?? 0) + module.renderedLength);
              total += module.renderedLength;
            }
            chunks.push({
              file: chunk.fileName,
              isEntry: chunk.isEntry,
              imports: chunk.imports,
              gzipBytes,
              groups: [...sizes]
                .sort((a, b) => b[1] - a[1])
                .map(([group, renderedBytes]) => ({
                  group,
                  renderedBytes,
                  estGzipKb: total ? Math.round(((renderedBytes / total) * gzipBytes) / 102.4) / 10 : 0,
                })),
            });
          }
        },
      },
    ],
  });
  return chunks.sort((a, b) => b.gzipBytes - a.gzipBytes);
}
