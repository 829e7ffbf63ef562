/**
 * The details of the API's generic problems (server/plugins/errors.ts) and of the API client's own failures
 * (web/src/lib/api-client.ts). The web decides by a problem's `code`; these are the words it may show.
 */
export const problems = {
  invalid: 'The request is invalid',
  notFound: 'Not found',
  signIn: 'Sign in to continue',
  forbidden: 'You are not allowed to do this',
  tooManyRequests: 'Too many requests, please wait a moment and try again.',
  internal: 'Something went wrong, try again later',
  internalShort: 'Something went wrong',
  unavailable: 'The service is briefly unavailable, try again in a moment.',
  collided: 'Another change got in the way of this one. Try again.',
  invalidValue:
    'The request contains a value the server cannot accept (such as a NUL character or a number out of range).',
  bodyCutShort: 'The request ended before its body was complete.',
  noRoute: 'No route for {method} {path}',
  methodNotAllowed: '{method} is not allowed on {path}',
  badAddress: 'The address is malformed.',
  /** A field whose value is not text (an API client's mistake: the forms always send text). */
  notText: 'Must be text',
  /** A field the schema refused without its own message. */
  fieldInvalid: 'is invalid',
  network: 'Network error, check your connection and try again',
  requestFailed: 'Request failed ({status})',
} as const;
