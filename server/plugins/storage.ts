import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { AwsClient } from 'aws4fetch';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MAX_UPLOAD_BYTES } from '../../contracts/constants';
import { IMAGE_MAX_WIDTH, IMAGE_VARIANT_WIDTH } from '../../contracts/images';
import type { AppConfig } from '../env';
import { AppError } from './errors';

/**
 * Uploaded images. Every upload is decoded and re-encoded to WebP by sharp (metadata stripped, size
 * capped), so we never serve a user's raw bytes. Files live under DATA_DIR/uploads or in an
 * S3-compatible bucket, and are served from /uploads/{folder}/{uuid}.webp with immutable caching.
 */

export type UploadFolder = 'eventImg' | 'userImg';

export interface StoredFile {
  key: string;
  url: string;
}

export interface Storage {
  saveImage(
    folder: UploadFolder,
    data: Buffer,
    options?: { maxWidth?: number; maxHeight?: number },
  ): Promise<StoredFile>;
  /**
   * Removes a file previously returned by saveImage (given its URL), and its 800 px copy; a file already
   * gone and URLs that are not upload URLs are ignored. Throws when the storage fails or refuses.
   */
  remove(url: string | null | undefined): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

export class InvalidImageError extends AppError {
  constructor(message = 'admin.uploadNotImage') {
    super(400, 'INVALID_IMAGE', message);
  }
}

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp']);
const MAX_INPUT_PIXELS = 40_000_000;
const URL_PATTERN = /^\/uploads\/(eventImg|userImg)\/([0-9a-f-]{36}\.webp)$/;

/** Whether `url` has the shape of a URL returned by saveImage. */
export function isUploadUrl(url: string): boolean {
  return URL_PATTERN.test(url);
}

let sharpModule: Promise<typeof import('sharp')> | undefined;
/**
 * sharp (≈30 MB of memory) is loaded with the first image, not at start-up: the one way the server gets it (the
 * boundary rule server-heavy-libraries-lazily refuses a static import).
 */
export async function loadSharp() {
  sharpModule ??= import('sharp');
  return (await sharpModule).default;
}

/**
 * How many images are decoded at once. A 5 MB upload may hold 40 million pixels (160 MB decoded), and
 * without a limit as many decode as the thread pool has threads (4 by default, more when configured).
 * Twenty 6,300 × 6,300 PNG avatars at once: peak RSS 405 MB without this limit, 385 MB with 2 at once
 * (in 1.7 s, as before on two cores) and 275 MB with 1 (but in 3.2 s). The others wait their turn, in order.
 */
const IMAGES_AT_ONCE = 2;
let imagesInWork = 0;
const waitingImages: Array<() => void> = [];

/** Runs `work` when fewer than IMAGES_AT_ONCE images are being decoded. */
export async function withImageSlot<T>(work: () => Promise<T>): Promise<T> {
  if (imagesInWork >= IMAGES_AT_ONCE) await new Promise<void>((resolve) => waitingImages.push(resolve));
  else imagesInWork += 1;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line (the count stays), or is given back.
    const next = waitingImages.shift();
    if (next) next();
    else imagesInWork -= 1;
  }
}

/** Decodes, validates and re-encodes an image; throws InvalidImageError for anything else. */
export async function reencodeImage(
  data: Buffer,
  maxWidth = IMAGE_MAX_WIDTH,
  maxHeight = IMAGE_MAX_WIDTH,
): Promise<Buffer> {
  if (data.length === 0 || data.length > MAX_UPLOAD_BYTES) throw new InvalidImageError();
  return withImageSlot(() => decodeAndEncode(data, maxWidth, maxHeight));
}

async function decodeAndEncode(data: Buffer, maxWidth: number, maxHeight: number): Promise<Buffer> {
  const sharp = await loadSharp();
  try {
    const image = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'truncated', animated: false });
    const meta = await image.metadata();
    if (!meta.format || !ACCEPTED_FORMATS.has(meta.format)) throw new InvalidImageError();
    return await image
      .rotate()
      .resize({ width: maxWidth, height: maxHeight, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
  } catch (error) {
    if (error instanceof InvalidImageError) throw error;
    throw new InvalidImageError();
  }
}

/** The 800 px copy of a stored picture (already a WebP we wrote, so no validation beyond sharp's own). */
async function variantOf(original: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  return withImageSlot(() =>
    sharp(original, { limitInputPixels: MAX_INPUT_PIXELS })
      .resize({ width: IMAGE_VARIANT_WIDTH, withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer(),
  );
}

const VARIANT_DIR = `w${IMAGE_VARIANT_WIDTH}`;

function diskStorage(root: string): Storage {
  return {
    async saveImage(folder, data, options) {
      const body = await reencodeImage(data, options?.maxWidth, options?.maxHeight);
      const name = `${randomUUID()}.webp`;
      await mkdir(path.join(root, folder), { recursive: true });
      await writeFile(path.join(root, folder, name), body);
      return { key: `${folder}/${name}`, url: `/uploads/${folder}/${name}` };
    },
    async remove(url) {
      const match = url ? URL_PATTERN.exec(url) : null;
      if (!match) return;
      await rm(path.join(root, match[1] as string, match[2] as string), { force: true });
      await rm(path.join(root, VARIANT_DIR, match[1] as string, match[2] as string), { force: true });
    },
  };
}

export interface ObjectStore {
  fetchObject(key: string): Promise<Response>;
  putObject(key: string, body: Buffer): Promise<Response>;
}

/**
 * How often the S3 client tries a request again after a 5xx or 429 answer (aws4fetch's default is 10, with
 * a backoff that doubles: a bucket in trouble would hold a request, or the uploads job, for about a minute).
 */
export const S3_RETRIES = 2;
/** Each S3 call (its retries and reading the answer included) is abandoned after this long. */
export const S3_TIMEOUT_MS = 15_000;

/** Storage in an S3-compatible bucket; `limits` are S3_RETRIES and S3_TIMEOUT_MS unless given (tests). */
export function s3Storage(
  s3: NonNullable<AppConfig['s3']>,
  limits: { retries?: number; timeoutMs?: number } = {},
): Storage & ObjectStore {
  const { retries = S3_RETRIES, timeoutMs = S3_TIMEOUT_MS } = limits;
  const client = new AwsClient({
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    service: 's3',
    region: s3.region,
    retries,
  });
  const base = `${(s3.endpoint ?? `https://s3.${s3.region}.amazonaws.com`).replace(/\/$/, '')}/${s3.bucket}`;
  /** One call on an object, given up after `timeoutMs` (aws4fetch itself has no timeout). */
  const call = (key: string, init?: RequestInit) =>
    client.fetch(`${base}/${key}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  const putObject = (key: string, body: Buffer) =>
    call(key, { method: 'PUT', body: new Uint8Array(body), headers: { 'content-type': 'image/webp' } });
  return {
    async saveImage(folder, data, options) {
      const body = await reencodeImage(data, options?.maxWidth, options?.maxHeight);
      const name = `${randomUUID()}.webp`;
      const res = await putObject(`${folder}/${name}`, body);
      if (!res.ok) throw new Error(`S3 upload failed with status ${res.status}`);
      return { key: `${folder}/${name}`, url: `/uploads/${folder}/${name}` };
    },
    async remove(url) {
      const match = url ? URL_PATTERN.exec(url) : null;
      if (!match) return;
      for (const key of [`${match[1]}/${match[2]}`, `${VARIANT_DIR}/${match[1]}/${match[2]}`]) {
        const res = await call(key, { method: 'DELETE' });
        // S3 answers 204 for a key it does not have; some compatible stores answer 404.
        if (!res.ok && res.status !== 404) throw new Error(`S3 answered ${res.status} to deleting ${key}`);
      }
    },
    fetchObject: (key) => call(key),
    putObject,
  };
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

export const storagePlugin = fp(
  async function storage(app: FastifyInstance, opts: { config: AppConfig }) {
    const { config } = opts;
    /** The 800 px copies: read from where they are kept, or made from the original once and kept. */
    const making = new Map<string, Promise<Buffer | null>>();
    function serveVariants(store: {
      read(key: string): Promise<Buffer | null>;
      write(key: string, body: Buffer): Promise<void>;
    }) {
      app.get(`/uploads/${VARIANT_DIR}/:folder/:file`, async (request, reply) => {
        const { folder, file } = request.params as { folder: string; file: string };
        if (!URL_PATTERN.test(`/uploads/${folder}/${file}`)) return reply.callNotFound();
        const key = `${folder}/${file}`;
        let body = await store.read(`${VARIANT_DIR}/${key}`);
        if (!body) {
          let made = making.get(key);
          if (!made) {
            made = (async () => {
              const original = await store.read(key);
              if (!original) return null;
              const variant = await variantOf(original);
              await store.write(`${VARIANT_DIR}/${key}`, variant);
              return variant;
            })().finally(() => making.delete(key));
            making.set(key, made);
          }
          body = await made;
        }
        if (!body) return reply.callNotFound();
        return reply.header('content-type', 'image/webp').header('cache-control', IMMUTABLE).send(body);
      });
    }

    if (config.s3) {
      const s3 = s3Storage(config.s3);
      app.decorate('storage', s3);
      app.get('/uploads/:folder/:file', async (request, reply) => {
        const { folder, file } = request.params as { folder: string; file: string };
        if (!URL_PATTERN.test(`/uploads/${folder}/${file}`)) return reply.callNotFound();
        const res = await s3.fetchObject(`${folder}/${file}`);
        if (!res.ok) return reply.callNotFound();
        return reply
          .header('content-type', 'image/webp')
          .header('cache-control', IMMUTABLE)
          .send(Buffer.from(await res.arrayBuffer()));
      });
      serveVariants({
        async read(key) {
          const res = await s3.fetchObject(key);
          return res.ok ? Buffer.from(await res.arrayBuffer()) : null;
        },
        async write(key, body) {
          const res = await s3.putObject(key, body);
          if (!res.ok) app.log.warn({ key, status: res.status }, 'could not keep an image copy');
        },
      });
      return;
    }
    const root = path.join(config.dataDir, 'uploads');
    await mkdir(root, { recursive: true });
    app.decorate('storage', diskStorage(root));
    serveVariants({
      async read(key) {
        return readFile(path.join(root, key)).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return null;
          throw error;
        });
      },
      async write(key, body) {
        // Written beside and renamed: a reader never sees half a file.
        const file = path.join(root, key);
        await mkdir(path.dirname(file), { recursive: true });
        const partial = `${file}.${randomUUID()}.part`;
        await writeFile(partial, body);
        await rename(partial, file);
      },
    });
    await app.register(fastifyStatic, {
      root,
      prefix: '/uploads/',
      decorateReply: false,
      index: false,
      dotfiles: 'deny',
      immutable: true,
      maxAge: '365d',
      setHeaders: (res) => res.header('cache-control', IMMUTABLE),
    });
  },
  { name: 'storage', dependencies: [] },
);
