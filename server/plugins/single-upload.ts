import type { FastifyRequest } from 'fastify';

/** Why a multipart upload was refused; each route answers with its own message. */
export type UploadFailure = 'not-multipart' | 'missing' | 'too-large' | 'bad-name' | 'invalid';

export class UploadRefused extends Error {
  constructor(readonly reason: UploadFailure) {
    super(`upload refused: ${reason}`);
  }
}

/**
 * The one file of a multipart request, in the field 'file' (the route's @fastify/multipart limits allow one file and no fields).
 * Every part is read, so that a second file or a field trips those limits and the request is refused, not
 * half taken. The file's name is never used for storage, but a name trying to climb folders is an attack.
 */
export async function readSingleUpload(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new UploadRefused('not-multipart');
  let data: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      const buffer = await part.toBuffer();
      if (/[/\\\0]|\.\./.test(part.filename)) throw new UploadRefused('bad-name');
      // The API's field is 'file': a file under any other name is a client mistake worth hearing about.
      if (part.fieldname !== 'file') throw new UploadRefused('missing');
      data = buffer;
    }
  } catch (error) {
    if (error instanceof UploadRefused) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new UploadRefused('too-large');
    // Anything else while reading the body is the request's fault: a second file or a field over the limits,
    // a broken or unterminated multipart body.
    throw new UploadRefused('invalid');
  }
  if (!data) throw new UploadRefused('missing');
  return data;
}
