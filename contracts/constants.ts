/** Business constants (page sizes, limits, the pages' timings), shared by server and web so both sides agree. */
export const EVENTS_PAGE_SIZE = 6;
export const ADMIN_EVENTS_PAGE_SIZE = 10;
export const HEADER_SEARCH_LIMIT = 6;
export const MAX_TICKETS_PER_BOOKING = 10;
export const MIN_TICKETS_PER_BOOKING = 1;
export const CURRENCY = 'EGP';
/** 1 EGP = 100 piasters; the card provider is sent total × 100. */
export const PIASTERS_PER_POUND = 100;
export const SEARCH_DEBOUNCE_MS = 500;
export const HOME_SKELETON_MS = 1000;
export const ADMIN_LOADING_MS = 1000;
export const SCROLL_TOP_THRESHOLD_PX = 150;
export const TOAST_DURATION_MS = 5000;
export const PROFILE_PICTURE_LOADING_MS = 3000;
export const SEARCH_QUERY_MAX_LENGTH = 100;
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** The fixed category a new event starts in. */
export const DEFAULT_CATEGORY_ID = 'other';
export const ALL_CATEGORIES = 'all';
