/**
 * Uploaded pictures are stored at most IMAGE_MAX_WIDTH wide and are also served IMAGE_VARIANT_WIDTH wide,
 * made on first request (server/plugins/storage.ts), so that a phone does not download a desktop-sized
 * picture for a card.
 */
export const IMAGE_VARIANT_WIDTH = 800;
export const IMAGE_MAX_WIDTH = 1600;

const UPLOADED = /^\/uploads\/(eventImg|userImg)\/[0-9a-f-]{36}\.webp$/;

/** How wide an event card's picture is drawn (3, 2 or 1 cards a row), for the browser to pick a file. */
export const EVENT_CARD_SIZES = '(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw';
/** The event page's picture spans the window. */
export const EVENT_HERO_SIZES = '100vw';
/** Small thumbnails (tickets). The header search keeps the original: it is part of every first load. */
export const THUMBNAIL_SIZES = '160px';

/**
 * `<img>` props for a picture drawn `sizes` wide: the browser picks the 800 px copy or the original.
 * srcset and sizes come before src, so a browser never starts fetching src before it knows the choice.
 * (Literal widths keep this small in the first page load; contracts/images.test.ts ties them to the
 * constants above.)
 */
export function responsiveImage(url: string, sizes: string): { srcSet?: string; sizes?: string; src: string } {
  return UPLOADED.test(url)
    ? { srcSet: `/uploads/w800/${url.slice(9)} 800w, ${url} 1600w`, sizes, src: url }
    : { src: url };
}
