import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { Problem } from '../../contracts/problem';

/** A failure the client can act on. Services throw subclasses with stable codes. */
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
  constructor(message = 'Not found', code = 'NOT_FOUND') {
    super(404, code, message);
  }
}
export class ValidationError extends AppError {
  constructor(errors: Record<string, string>, message = 'The request is invalid') {
    super(400, 'VALIDATION_FAILED', message, errors);
  }
}
export class ConflictError extends AppError {
  constructor(code: string, message: string, extra?: Record<string, unknown>) {
    super(409, code, message, undefined, extra);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Sign in to continue') {
    super(401, 'UNAUTHENTICATED', message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = 'You are not allowed to do this') {
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
  const body: Problem & Record<string, unknown> = {
    type: 'about:blank',
    title: titles[status] ?? 'Error',
    status,
    detail,
    code,
    ...(errors ? { errors } : {}),
    ...extra,
  };
  return reply.status(status).type('application/problem+json; charset=utf-8').send(body);
}

function fieldErrorsFromZod(error: FastifyError): Record<string, string> {
  const result: Record<string, string> = {};
  if (!hasZodFastifySchemaValidationErrors(error)) return result;
  for (const issue of error.validation) {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
    if (!(path in result)) result[path] = issue.message ?? 'is invalid';
  }
  return result;
}

export const errorsPlugin = fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      return sendProblem(reply, error.status, error.code, error.message, error.errors, error.extra);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendProblem(reply, 400, 'VALIDATION_FAILED', 'The request is invalid', fieldErrorsFromZod(error));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return sendProblem(reply, 500, 'INTERNAL', 'Something went wrong, try again later');
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, wrong content type, rate limit...
      const code = status === 429 ? 'RATE_LIMITED' : (error.code ?? 'BAD_REQUEST');
      const detail = status === 429 ? 'Too many requests, please wait a moment and try again.' : error.message;
      return sendProblem(reply, status, code, detail);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, 500, 'INTERNAL', 'Something went wrong, try again later');
  });
});
