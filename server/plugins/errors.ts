import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { messageText } from '../../contracts/i18n/text';
import type { Problem } from '../../contracts/problem';
import { requestI18n } from './i18n';

/** Nothing may load from, or frame, a JSON answer opened as a page: API answers and framework errors. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * A failure the client can act on. Services throw subclasses with stable codes; the message is a key of the
 * messages (contracts/i18n, or `msg(key, values)`), which sendProblem words in the request's language. The
 * generic ones are the `problems` namespace's.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: Record<string, string>,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}
export class NotFoundError extends AppError {
  constructor(message: string = 'problems.notFound', code = 'NOT_FOUND') {
    super(404, code, message);
  }
}
export class ValidationError extends AppError {
  constructor(errors: Record<string, string>, message: string = 'problems.invalid') {
    super(400, 'VALIDATION_FAILED', message, errors);
  }
}
export class ConflictError extends AppError {
  constructor(code: string, message: string, extra?: Record<string, unknown>) {
    super(409, code, message, undefined, extra);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message: string = 'problems.signIn') {
    super(401, 'UNAUTHENTICATED', message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message: string = 'problems.forbidden') {
    super(403, 'FORBIDDEN', message);
  }
}

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function sendProblem(
  reply: FastifyReply,
  status: number,
  code: string,
  detail: string,
  errors?: Record<string, string>,
  extra?: Record<string, unknown>,
): FastifyReply {
  // A detail or field error given as a message key (contracts/i18n) is sent in the request's language.
  const i18n = requestI18n(reply.request);
  const text = (message: string) => messageText(i18n, message);
  const body: Problem & Record<string, unknown> = {
    type: 'about:blank',
    title: titles[status] ?? 'Error',
    status,
    detail: text(detail),
    code,
    ...(errors
      ? { errors: Object.fromEntries(Object.entries(errors).map(([field, error]) => [field, text(error)])) }
      : {}),
    ...extra,
  };
  return reply.status(status).type('application/problem+json; charset=utf-8').send(body);
}

/**
 * Requests Node's HTTP parser refuses before any route sees them (a control character in a header, a bad
 * Content-Length, headers too large, a request too slow to arrive) get the same problem format as every
 * other error, then the connection is closed as Node would (the stream may be out of step).
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, detail] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive.']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'HEADERS_TOO_LARGE', 'The request headers are too large.']
        : [400, 'BAD_REQUEST', 'The request is not valid HTTP.'];
  const body = JSON.stringify({ type: 'about:blank', title: STATUS_CODES[status], status, detail, code });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

function fieldErrorsFromZod(error: FastifyError): Record<string, string> {
  const result: Record<string, string> = {};
  if (!hasZodFastifySchemaValidationErrors(error)) return result;
  for (const issue of error.validation) {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
    if (!(path in result)) result[path] = issue.message ?? 'problems.fieldInvalid';
  }
  return result;
}

/**
 * Fastify's router answers a malformed URL (bad percent-encoding) or an over-long path parameter itself,
 * before any hook or error handler runs; this option makes those answers problems with safe headers too.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  // No id of ours is that long: an over-long parameter names nothing, like any unknown id.
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 404 : error.code === 'FST_ERR_BAD_URL' ? 400 : 500;
  reply
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', API_CONTENT_SECURITY_POLICY)
    .header('referrer-policy', 'strict-origin-when-cross-origin');
  sendProblem(
    reply,
    status,
    status === 404 ? 'NOT_FOUND' : status === 500 ? 'INTERNAL' : (error.code ?? 'BAD_REQUEST'),
    status === 404 ? 'problems.notFound' : status === 400 ? 'problems.badAddress' : 'problems.internalShort',
  );
}

/** The code of a client error that comes without one (the static files' 403 for a folder, say). */
const CODES_OF_STATUSES: Record<number, string> = { 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

/**
 * SQLSTATEs that mean "this input value is impossible": NUL byte or bad encoding (22021), malformed
 * uuid/number/date text (22P02, 22007), numeric or date overflow (22003, 22008), too long for the column
 * or an index (22001, 54000).
 */
const INPUT_SQLSTATES = new Set(['22021', '22P02', '22007', '22003', '22008', '22001', '54000']);

/** The SQLSTATE of a pg error, possibly wrapped (Drizzle puts the driver's error in `cause`). */
function sqlStateOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * PostgreSQL cancelled the statement to break a deadlock (40P01) or a serialization failure (40001): two
 * changes collided and this one was rolled back whole. Nothing was written, so the client may simply try again.
 */
export function isTransactionCollision(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state === '40P01' || state === '40001';
}

/** Connection failures (refused, socket missing, dropped mid-query) and PostgreSQL shutting down or full. */
function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : '';
    if (typeof code === 'string') {
      if (/^08[0-9A-Z]{3}$/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
      if ((code === 'ECONNREFUSED' || code === 'ENOENT') && text.includes('.s.PGSQL.')) return true;
      // The database's socket closed under a query being sent (our handlers catch every other service's).
      if (code === 'EPIPE' || code === 'ECONNRESET') return true;
    }
    if (/^Connection terminated|timeout exceeded when trying to connect/.test(text)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The request's body ended early because its client hung up: the error is the body stream's own abort, on a
 * request whose body never arrived whole. Any other error of a request whose client has gone (a GET the
 * browser cancelled while its handler failed) is still handled, and logged, as what it is.
 */
function isBodyCutShort(error: FastifyError, request: FastifyRequest): boolean {
  return (
    error.code === 'ECONNRESET' && error.message === 'aborted' && request.raw.readableAborted && !request.raw.complete
  );
}

/** One error handler for the app: every failure leaves as application/problem+json. */
async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      return sendProblem(reply, error.status, error.code, error.message, error.errors, error.extra);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendProblem(reply, 400, 'VALIDATION_FAILED', 'problems.invalid', fieldErrorsFromZod(error));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return sendProblem(reply, 500, 'INTERNAL', 'problems.internal');
    }
    if (isBodyCutShort(error, request)) {
      // The client went away while sending its body (Node reports it as ECONNRESET 'aborted'): nobody is left to
      // answer, and it says nothing about the database.
      request.log.info({ code: error.code, method: request.method, url: request.url }, 'client closed the request');
      return sendProblem(reply, 400, 'REQUEST_ABORTED', 'problems.bodyCutShort');
    }
    if (isDatabaseUnavailable(error)) {
      // PostgreSQL restarting or unreachable: a temporary condition the client may retry, not a bug.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', '5');
      return sendProblem(reply, 503, 'DATABASE_UNAVAILABLE', 'problems.unavailable');
    }
    if (isTransactionCollision(error)) {
      request.log.warn({ err: error }, 'transaction collided with another and was rolled back');
      return sendProblem(reply, 409, 'TRANSACTION_COLLIDED', 'problems.collided');
    }
    const state = sqlStateOf(error);
    if (state !== undefined && INPUT_SQLSTATES.has(state)) {
      // Validation let through a value PostgreSQL cannot take (NUL byte, out-of-range number...): the input is bad.
      request.log.warn({ err: error }, 'database refused a value from the request');
      return sendProblem(reply, 400, 'INVALID_INPUT', 'problems.invalidValue');
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, wrong content type, rate limit...
      const code = status === 429 ? 'RATE_LIMITED' : (error.code ?? CODES_OF_STATUSES[status] ?? 'BAD_REQUEST');
      const detail = status === 429 ? 'problems.tooManyRequests' : error.message;
      return sendProblem(reply, status, code, detail);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, 500, 'INTERNAL', 'problems.internal');
  });
}

export const errorsPlugin = fp(errors, { name: 'errors', dependencies: [] });
