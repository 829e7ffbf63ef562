/**
 * Uploaded pictures are stored up to 1600 px wide and are also served 800 px wide, made on first request
 * (server/plugins/storage.ts), so that a phone does not download a desktop-sized picture for a card.
 */
export const IMAGE_VARIANT_WIDTH = 800;
/** The widest an event picture is stored (server/plugins/storage.ts re-encodes uploads to fit). */
export const IMAGE_MAX_WIDTH = 1600;

const UPLOADED = /^\/uploads\/(eventImg|userImg)\/[0-9a-f-]{36}\.webp$/;

/** How wide an event card's picture is drawn (3, 2 or 1 cards a row), for the browser to pick a file. */
export const EVENT_CARD_SIZES = '(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw';
/** The event page's picture spans the window. */
export const EVENT_HERO_SIZES = '100vw';
/** Small thumbnails (header search, tickets). */
export const THUMBNAIL_SIZES = '160px';

/** The `srcset` of an uploaded picture: its 800 px copy and the original. Undefined for other URLs. */
export function imageSrcSet(url: string): string | undefined {
  if (!UPLOADED.test(url)) return undefined;
  return `${variantUrl(url)} ${IMAGE_VARIANT_WIDTH}w, ${url} ${IMAGE_MAX_WIDTH}w`;
}

/** /uploads/{folder}/{file} → /uploads/w800/{folder}/{file}. */
export function variantUrl(url: string): string {
  return url.replace(/^\/uploads\//, `/uploads/w${IMAGE_VARIANT_WIDTH}/`);
}

/**
 * `<img>` props for a picture drawn `sizes` wide: the browser picks the 800 px copy or the original.
 * srcset and sizes come before src, so a browser never starts fetching src before it knows the choice.
 */
export function responsiveImage(url: string, sizes: string): { srcSet?: string; sizes?: string; src: string } {
  const srcSet = imageSrcSet(url);
  return srcSet ? { srcSet, sizes, src: url } : { src: url };
}
