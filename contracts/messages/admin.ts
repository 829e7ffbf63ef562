/**
 * Moved to contracts/i18n (namespace admin). Left only for server/plugins/storage-s3.test.ts, which reads the
 * English of one message: delete this file once that test reads it from contracts/i18n.
 */
export const adminMessages = {
  imageInvalid: 'Upload the image again',
} as const;
