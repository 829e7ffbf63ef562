import type { MessageKey, MessageParams } from '../../../contracts/i18n/types';
import type { Problem } from '../../../contracts/problem';
import { currentI18n } from './i18n';

/**
 * An API failure, parsed from the server's application/problem+json body. Its message is the problem's detail,
 * which the server wrote in the page's language, or the client's own words in it (a network failure).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: Record<string, string> = {},
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

type Json = Record<string, unknown> | unknown[];

/** The client's own words for a failure, in the page's language (the key itself where there is no page). */
function clientWords(key: MessageKey, params?: MessageParams): string {
  return typeof document === 'undefined' ? key : currentI18n().t(key, params);
}

/** Told when an answer says the session sent has ended; set by the app (web/src/app/boot.tsx). */
let sessionEnded = () => {};

export function onSessionEnded(listener: () => void): void {
  sessionEnded = listener;
}

/** Tells the app that the session has ended, when an answer other than a 401 says so (see getMe). */
export function reportSessionEnded(): void {
  sessionEnded();
}

/**
 * The API's "sign in to continue" (401 UNAUTHENTICATED): the call needs a session and the one sent has
 * ended (expired, revoked, signed out in another tab) or is gone. The app then signs out and moves to
 * /login by itself (web/src/app/session-end.ts), so a page need say nothing more about it. A wrong
 * password is 401 INVALID_CREDENTIALS.
 */
export function isSessionEnded(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.code === 'UNAUTHENTICATED';
}

/** The Date header of the last answer and when it came (this device's clock), for serverNow(). */
export const lastAnswer = { date: '', at: 0 };

async function request<T>(method: string, path: string, body?: Json | FormData, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (body !== undefined && !(body instanceof FormData)) headers.set('content-type', 'application/json');
  headers.set('accept', 'application/json');
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK', clientWords('problems.network'));
  }
  lastAnswer.date = response.headers.get('date') ?? '';
  lastAnswer.at = Date.now();
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const data = text ? safeParse(text) : undefined;
  if (!response.ok) {
    const problem = (data ?? {}) as Partial<Problem> & Record<string, unknown>;
    const error = new ApiError(
      response.status,
      problem.code ?? 'HTTP_ERROR',
      problem.detail ?? problem.title ?? clientWords('problems.requestFailed', { status: response.status }),
      problem.errors ?? {},
      problem,
    );
    // Before the caller hears of it: by the time its own error handling runs, the app has signed out.
    if (isSessionEnded(error)) sessionEnded();
    throw error;
  }
  return data as T;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const api = {
  get: <T>(path: string, init?: RequestInit) => request<T>('GET', path, undefined, init),
  post: <T>(path: string, body?: Json | FormData, init?: RequestInit) => request<T>('POST', path, body ?? {}, init),
  put: <T>(path: string, body: Json, init?: RequestInit) => request<T>('PUT', path, body, init),
  patch: <T>(path: string, body: Json, init?: RequestInit) => request<T>('PATCH', path, body, init),
  delete: <T>(path: string, init?: RequestInit) => request<T>('DELETE', path, undefined, init),
};

/** Builds a query string from defined, non-empty values. */
export function toQuery(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
