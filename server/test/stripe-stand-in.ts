import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP stand-in for the parts of the Stripe API that Eventry uses (PaymentIntents and refunds),
 * answering in Stripe's shapes, including its error bodies. Tests point the real `stripe` package at
 * it (127.0.0.1); no traffic leaves the machine. Only for tests and the benchmark.
 */

export interface StandInIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: 'requires_payment_method' | 'requires_confirmation' | 'processing' | 'succeeded' | 'canceled';
  client_secret: string;
  metadata: Record<string, string>;
  last_payment_error: { type: string; code: string; decline_code?: string; message: string } | null;
  cancellation_reason: string | null;
  created: number;
  livemode: false;
}

export interface StandInRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  body: Record<string, string>;
}

export interface StripeStandIn {
  url: string;
  intents: Map<string, StandInIntent>;
  refunds: Array<{ id: string; payment_intent: string; amount: number }>;
  requests: StandInRequest[];
  /** The next API call answers with this status and Stripe error object. */
  failNext(status: number, error: Record<string, unknown>): void;
  /** What a browser's Payment Element would do: confirm with a test payment method. */
  setStatus(id: string, status: StandInIntent['status']): void;
  close(): Promise<void>;
}

export const STAND_IN_SECRET_KEY = 'sk_test_standin_0123456789';
export const STAND_IN_PUBLISHABLE_KEY = 'pk_test_standin_0123456789';

const DECLINES: Record<string, { code: string; decline_code?: string; message: string }> = {
  pm_card_chargeDeclined: {
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  },
  pm_card_chargeDeclinedInsufficientFunds: {
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  pm_card_chargeDeclinedExpiredCard: { code: 'expired_card', message: "Your card's expiration date is in the past." },
};

function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** Stripe sends application/x-www-form-urlencoded with bracketed keys (metadata[bookingId]). */
function parseForm(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) result[key] = value;
  return result;
}

function stripeError(res: ServerResponse, status: number, error: Record<string, unknown>) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
  res.end(JSON.stringify({ error }));
}

function send(res: ServerResponse, body: unknown) {
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': id('req') });
  res.end(JSON.stringify(body));
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const intents = new Map<string, StandInIntent>();
  const byIdempotencyKey = new Map<string, unknown>();
  const refunds: StripeStandIn['refunds'] = [];
  const requests: StandInRequest[] = [];
  let injected: { status: number; error: Record<string, unknown> } | undefined;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = parseForm(Buffer.concat(chunks).toString('utf8'));
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    requests.push({ method: req.method ?? 'GET', path: url.pathname, idempotencyKey, body });

    if (req.headers.authorization !== `Bearer ${STAND_IN_SECRET_KEY}`) {
      return stripeError(res, 401, {
        type: 'invalid_request_error',
        message: 'Invalid API Key provided: sk_test_****',
      });
    }
    if (injected) {
      const { status, error } = injected;
      injected = undefined;
      return stripeError(res, status, error);
    }
    const replayKey = idempotencyKey ? `${req.method} ${url.pathname} ${idempotencyKey}` : undefined;
    if (replayKey && byIdempotencyKey.has(replayKey)) return send(res, byIdempotencyKey.get(replayKey));
    const remember = (value: unknown) => {
      if (replayKey) byIdempotencyKey.set(replayKey, value);
      return send(res, value);
    };

    const parts = url.pathname.split('/').filter(Boolean);
    if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
      const amount = Number(body.amount);
      if (!Number.isInteger(amount) || amount < 1) {
        return stripeError(res, 400, {
          type: 'invalid_request_error',
          code: 'parameter_invalid_integer',
          param: 'amount',
          message: 'Invalid integer: amount',
        });
      }
      const metadata: Record<string, string> = {};
      for (const [key, value] of Object.entries(body)) {
        const m = /^metadata\[(.+)\]$/.exec(key);
        if (m?.[1]) metadata[m[1]] = value;
      }
      const piId = id('pi');
      const intent: StandInIntent = {
        id: piId,
        object: 'payment_intent',
        amount,
        currency: body.currency ?? 'usd',
        status: 'requires_payment_method',
        client_secret: `${piId}_secret_${randomBytes(8).toString('hex')}`,
        metadata,
        last_payment_error: null,
        cancellation_reason: null,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
      };
      intents.set(piId, intent);
      return remember(intent);
    }
    if (parts[0] === 'v1' && parts[1] === 'payment_intents' && parts[2]) {
      const intent = intents.get(parts[2]);
      if (!intent) {
        return stripeError(res, 404, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          param: 'intent',
          message: `No such payment_intent: '${parts[2]}'`,
        });
      }
      if (req.method === 'GET' && parts.length === 3) return send(res, intent);
      if (req.method === 'POST' && parts[3] === 'confirm') {
        const decline = DECLINES[body.payment_method ?? ''];
        if (decline) {
          intent.status = 'requires_payment_method';
          intent.last_payment_error = { type: 'card_error', ...decline };
          return stripeError(res, 402, {
            type: 'card_error',
            ...decline,
            payment_intent: intent,
            doc_url: `https://stripe.com/docs/error-codes/${decline.code}`,
          });
        }
        intent.status = 'succeeded';
        intent.last_payment_error = null;
        return remember(intent);
      }
      if (req.method === 'POST' && parts[3] === 'cancel') {
        if (intent.status === 'succeeded' || intent.status === 'canceled') {
          return stripeError(res, 400, {
            type: 'invalid_request_error',
            code: 'payment_intent_unexpected_state',
            message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
          });
        }
        intent.status = 'canceled';
        intent.cancellation_reason = body.cancellation_reason ?? 'requested_by_customer';
        return remember(intent);
      }
    }
    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      const intent = intents.get(body.payment_intent ?? '');
      if (intent?.status !== 'succeeded') {
        return stripeError(res, 400, {
          type: 'invalid_request_error',
          code: intent ? 'charge_not_refundable' : 'resource_missing',
          message: intent ? 'This PaymentIntent has no successful charge to refund.' : 'No such payment_intent',
        });
      }
      const refunded = refunds.filter((r) => r.payment_intent === intent.id).reduce((n, r) => n + r.amount, 0);
      const amount = body.amount === undefined ? intent.amount - refunded : Number(body.amount);
      if (refunded >= intent.amount || !Number.isInteger(amount) || amount < 1 || refunded + amount > intent.amount) {
        return stripeError(res, 400, {
          type: 'invalid_request_error',
          code: 'charge_already_refunded',
          message: 'Charge has already been refunded.',
        });
      }
      const refund = { id: id('re'), object: 'refund', payment_intent: intent.id, amount };
      refunds.push(refund);
      return remember({ ...refund, status: 'succeeded', currency: intent.currency });
    }
    return stripeError(res, 404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${req.method}: ${url.pathname}).`,
    });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => stripeError(res, 500, { type: 'api_error', message: 'stand-in failure' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    intents,
    refunds,
    requests,
    failNext(status, error) {
      injected = { status, error };
    },
    setStatus(piId, status) {
      const intent = intents.get(piId);
      if (intent) intent.status = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
