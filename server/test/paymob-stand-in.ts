import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP stand-in for the parts of Paymob's API that Eventry uses: auth tokens, intentions, the unified
 * checkout (a minimal page that pays or declines), kiosk cash (a bill reference paid later at a "kiosk" page),
 * the transaction inquiry and refunds. It signs its callbacks and redirects with Paymob's documented HMAC formula,
 * written here on its own (not imported from the adapter it tests). Only for tests: no traffic leaves 127.0.0.1.
 *
 * Run on its own for the browser tests: `npx tsx server/test/paymob-stand-in.ts PORT`.
 */

export const PAYMOB_STAND_IN = {
  secretKey: 'egy_sk_test_standin_0123456789',
  publicKey: 'egy_pk_test_standin_0123456789',
  hmacSecret: 'STANDIN0HMAC0SECRET0123456789ABC',
  apiKey: 'standin-api-key-0123456789',
  integrations: { card: 4_100_001, wallet: 4_100_002, cash: 4_100_003 },
} as const;

type Method = 'card' | 'wallet' | 'cash';

export interface StandInIntention {
  id: string;
  clientSecret: string;
  orderId: number;
  amount: number;
  currency: string;
  method: Method;
  integration: number;
  specialReference: string;
  notificationUrl: string;
  redirectionUrl: string;
  paymentKey: string;
  billing: Record<string, unknown>;
}

/** A transaction in Paymob's shape (the callback's `obj`, an inquiry's answer). */
export interface StandInTransaction {
  id: number;
  pending: boolean;
  amount_cents: number;
  success: boolean;
  is_auth: boolean;
  is_capture: boolean;
  is_standalone_payment: boolean;
  is_voided: boolean;
  is_refunded: boolean;
  is_3d_secure: boolean;
  integration_id: number;
  profile_id: number;
  has_parent_transaction: boolean;
  order: { id: number; merchant_order_id: string; amount_cents: number };
  created_at: string;
  currency: string;
  error_occured: boolean;
  owner: number;
  parent_transaction: number | null;
  refunded_amount_cents: number;
  source_data: { pan: string; sub_type: string; type: string };
  data: Record<string, unknown>;
}

export interface SentCallback {
  url: string;
  body: { type: 'TRANSACTION'; obj: StandInTransaction };
  hmac: string;
  status: number;
}

export interface PaymobStandIn {
  url: string;
  intentions: Map<string, StandInIntention>;
  transactions: Map<number, StandInTransaction>;
  callbacks: SentCallback[];
  refunds: Array<{ transactionId: number; amountCents: number }>;
  requests: Array<{ method: string; path: string; body: unknown }>;
  /** Callbacks are not sent while this is set (a callback that never arrives). */
  dropCallbacks: boolean;
  /** The next API call answers this status. */
  failNext(status: number): void;
  /** The next intention answers this order id, one it gave before (a provider that reuses its ids). */
  reuseOrderNext(orderId: number): void;
  /** Pays (or declines) an intention's order as the checkout page would; answers the redirect URL. */
  checkout(clientSecret: string, outcome: 'pay' | 'decline'): Promise<string>;
  /** A kiosk takes the cash for a bill reference. */
  payBill(billReference: string): Promise<StandInTransaction>;
  intentionOfBooking(bookingId: string): StandInIntention | undefined;
  /** Sends a transaction's callback again (Paymob retries). */
  resend(transaction: StandInTransaction): Promise<number>;
  close(): Promise<void>;
}

/** Paymob's HMAC fields, in its order (its documentation's "HMAC calculation"). */
const SIGNED = [
  'amount_cents',
  'created_at',
  'currency',
  'error_occured',
  'has_parent_transaction',
  'id',
  'integration_id',
  'is_3d_secure',
  'is_auth',
  'is_capture',
  'is_refunded',
  'is_standalone_payment',
  'is_voided',
  'order.id',
  'owner',
  'pending',
  'source_data.pan',
  'source_data.sub_type',
  'source_data.type',
  'success',
];

export function signTransaction(t: StandInTransaction, secret = PAYMOB_STAND_IN.hmacSecret): string {
  const flat = flatten(t);
  const text = SIGNED.map((name) => String(flat[name === 'order.id' ? 'order' : name] ?? '')).join('');
  return createHmac('sha512', secret).update(text).digest('hex');
}

/** The transaction as the buyer's redirect carries it: flattened, `order` for the order's id. */
function flatten(t: StandInTransaction): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(t)) {
    if (key === 'order') out.order = String(t.order.id);
    else if (key === 'source_data') {
      for (const [k, v] of Object.entries(t.source_data)) out[`source_data.${k}`] = String(v);
    } else if (key === 'data') {
      if (typeof t.data.message === 'string') out['data.message'] = t.data.message;
    } else if (value !== null && typeof value !== 'object') out[key] = String(value);
  }
  return out;
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function page(res: ServerResponse, html: string) {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Paymob stand-in</title>
<meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body style="font-family:sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem">${html}</body></html>`);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startPaymobStandIn(
  options: {
    port?: number;
    /** How a callback reaches the app (by default an HTTP POST to its notification_url). Answers the status. */
    deliver?: (url: string, body: string) => Promise<number>;
  } = {},
): Promise<PaymobStandIn> {
  const intentions = new Map<string, StandInIntention>();
  const transactions = new Map<number, StandInTransaction>();
  const byOrder = new Map<number, number[]>();
  const usedReferences = new Set<string>();
  const tokens = new Set<string>();
  const callbacks: SentCallback[] = [];
  const refunds: PaymobStandIn['refunds'] = [];
  const requests: PaymobStandIn['requests'] = [];
  // Paymob's ids only grow: started from the clock, a stand-in started again never repeats one a database kept.
  let nextOrder = Math.floor(Date.now() / 100);
  let nextTransaction = Math.floor(Date.now() / 100);
  let nextBill = 58_000;
  let injected: number | undefined;
  let reusedOrder: number | undefined;
  const deliver =
    options.deliver ??
    (async (url: string, body: string) => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return response.status;
    });

  const state = {
    dropCallbacks: false,
  };

  async function callback(t: StandInTransaction): Promise<number> {
    const intention = [...intentions.values()].find((i) => i.orderId === t.order.id);
    if (!intention || state.dropCallbacks) return 0;
    const body = { type: 'TRANSACTION' as const, obj: structuredClone(t) };
    const hmac = signTransaction(t);
    const url = `${intention.notificationUrl}${intention.notificationUrl.includes('?') ? '&' : '?'}hmac=${hmac}`;
    let status = 0;
    try {
      status = await deliver(url, JSON.stringify(body));
    } catch {
      status = 0;
    }
    callbacks.push({ url, body, hmac, status });
    return status;
  }

  function transactionFor(intention: StandInIntention, fields: Partial<StandInTransaction>): StandInTransaction {
    const source =
      intention.method === 'cash'
        ? { pan: '', sub_type: 'AGGREGATOR', type: 'aggregator' }
        : intention.method === 'wallet'
          ? { pan: '01010101010', sub_type: 'wallet', type: 'wallet' }
          : { pan: '2346', sub_type: 'MasterCard', type: 'card' };
    const t: StandInTransaction = {
      id: nextTransaction++,
      pending: false,
      amount_cents: intention.amount,
      success: false,
      is_auth: false,
      is_capture: false,
      is_standalone_payment: true,
      is_voided: false,
      is_refunded: false,
      is_3d_secure: intention.method === 'card',
      integration_id: intention.integration,
      profile_id: 106,
      has_parent_transaction: false,
      order: { id: intention.orderId, merchant_order_id: intention.specialReference, amount_cents: intention.amount },
      created_at: new Date().toISOString().replace('Z', '').slice(0, 26),
      currency: intention.currency,
      error_occured: false,
      owner: 302_852,
      parent_transaction: null,
      refunded_amount_cents: 0,
      source_data: source,
      data: {},
      ...fields,
    };
    transactions.set(t.id, t);
    byOrder.set(t.order.id, [...(byOrder.get(t.order.id) ?? []), t.id]);
    return t;
  }

  async function checkout(clientSecret: string, outcome: 'pay' | 'decline'): Promise<string> {
    const intention = intentions.get(clientSecret);
    if (!intention) throw new Error('no such intention');
    const t = transactionFor(intention, {
      success: outcome === 'pay',
      data: {
        message: outcome === 'pay' ? 'Approved' : 'Do not honour',
        txn_response_code: outcome === 'pay' ? 'APPROVED' : 'DECLINED',
      },
    });
    await callback(t);
    const back = new URL(intention.redirectionUrl);
    for (const [k, v] of Object.entries(flatten(t))) back.searchParams.set(k, v);
    back.searchParams.set('hmac', signTransaction(t));
    return back.toString();
  }

  async function payBill(billReference: string): Promise<StandInTransaction> {
    const t = [...transactions.values()].find((x) => String(x.data.bill_reference) === billReference && x.pending);
    if (!t) throw new Error(`no unpaid bill ${billReference}`);
    // The same transaction, now paid (Paymob tells of it again).
    t.pending = false;
    t.success = true;
    t.data = { ...t.data, message: 'Approved', txn_response_code: 'APPROVED' };
    await callback(t);
    return t;
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const raw = await readBody(req);
    const form = req.headers['content-type']?.includes('application/x-www-form-urlencoded');
    let body: Record<string, unknown> = {};
    try {
      body = form ? Object.fromEntries(new URLSearchParams(raw)) : raw ? JSON.parse(raw) : {};
    } catch {
      return send(res, 400, { detail: 'JSON parse error' });
    }
    requests.push({ method: req.method ?? 'GET', path: url.pathname, body });
    const auth = req.headers.authorization ?? '';
    const apiCall = !url.pathname.startsWith('/unifiedcheckout') && !url.pathname.startsWith('/kiosk');
    if (apiCall && injected !== undefined) {
      const status = injected;
      injected = undefined;
      return send(res, status, { detail: 'Injected failure' });
    }

    if (req.method === 'POST' && url.pathname === '/api/auth/tokens') {
      if (body.api_key !== PAYMOB_STAND_IN.apiKey) return send(res, 403, { detail: 'Incorrect credentials' });
      const token = randomBytes(24).toString('hex');
      tokens.add(token);
      return send(res, 201, { token, profile: { id: 106 } });
    }

    if (req.method === 'POST' && url.pathname === '/v1/intention/') {
      if (auth !== `Token ${PAYMOB_STAND_IN.secretKey}`) return send(res, 401, { detail: 'Invalid token.' });
      const amount = body.amount;
      const items = Array.isArray(body.items) ? (body.items as Array<Record<string, unknown>>) : [];
      const billing = (body.billing_data ?? {}) as Record<string, unknown>;
      const methods = Array.isArray(body.payment_methods) ? body.payment_methods : [];
      const integration = methods[0];
      const method = (Object.entries(PAYMOB_STAND_IN.integrations).find(([, id]) => id === integration)?.[0] ??
        undefined) as Method | undefined;
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1) {
        return send(res, 400, { amount: ['A valid integer is required.'] });
      }
      if (body.currency !== 'EGP') return send(res, 400, { currency: ['Unsupported currency'] });
      const sum = items.reduce((n, i) => n + Number(i.amount) * Number(i.quantity ?? 1), 0);
      if (items.length > 0 && sum !== amount) return send(res, 406, { detail: 'unmatched_item_prices' });
      if (!method || methods.length !== 1) {
        return send(res, 404, { detail: 'Integration ID/Name does not exist or does not belong to the merchant' });
      }
      for (const field of ['first_name', 'last_name', 'email', 'phone_number']) {
        if (typeof billing[field] !== 'string' || !billing[field] || billing[field] === 'NA') {
          return send(res, 400, { billing_data: { [field]: ['This field is required.'] } });
        }
      }
      const specialReference = String(body.special_reference ?? '');
      if (!specialReference || usedReferences.has(specialReference)) {
        return send(res, 400, { special_reference: ['special reference must be unique'] });
      }
      usedReferences.add(specialReference);
      const orderId = reusedOrder ?? nextOrder++;
      reusedOrder = undefined;
      const intention: StandInIntention = {
        id: `pi_test_${randomBytes(16).toString('hex')}`,
        clientSecret: `egy_csk_test_${randomBytes(16).toString('hex')}`,
        orderId,
        amount,
        currency: 'EGP',
        method,
        integration: integration as number,
        specialReference,
        notificationUrl: String(body.notification_url ?? ''),
        redirectionUrl: String(body.redirection_url ?? ''),
        paymentKey: randomBytes(32).toString('base64url'),
        billing,
      };
      intentions.set(intention.clientSecret, intention);
      return send(res, 201, {
        payment_keys: [{ integration: intention.integration, key: intention.paymentKey, order_id: orderId }],
        intention_order_id: orderId,
        id: intention.id,
        client_secret: intention.clientSecret,
        special_reference: specialReference,
        status: 'intended',
        confirmed: false,
        object: 'paymentintention',
      });
    }

    if (req.method === 'POST' && url.pathname === '/api/acceptance/payments/pay') {
      const source = (body.source ?? {}) as Record<string, unknown>;
      const intention = [...intentions.values()].find((i) => i.paymentKey === body.payment_token);
      if (!intention) return send(res, 401, { detail: 'Invalid payment token' });
      if (source.subtype !== 'AGGREGATOR' || intention.method !== 'cash') {
        return send(res, 400, { detail: 'Unsupported source for this integration' });
      }
      const t = transactionFor(intention, {
        pending: true,
        data: {
          message: 'Pending Payment',
          txn_response_code: '05',
          bill_reference: nextBill++,
          due_amount: intention.amount / 100,
        },
      });
      await callback(t);
      return send(res, 200, t);
    }

    if (req.method === 'POST' && url.pathname === '/api/ecommerce/orders/transaction_inquiry') {
      if (!tokens.has(auth.replace(/^Bearer /, ''))) return send(res, 401, { detail: 'Invalid token' });
      const ids = byOrder.get(Number(body.order_id)) ?? [];
      const latest = ids.length ? transactions.get(ids[ids.length - 1] as number) : undefined;
      return latest ? send(res, 200, latest) : send(res, 404, { detail: 'Not found.' });
    }

    const byId = /^\/api\/acceptance\/transactions\/(\d+)$/.exec(url.pathname);
    if (req.method === 'GET' && byId) {
      if (!tokens.has(auth.replace(/^Bearer /, ''))) return send(res, 401, { detail: 'Invalid token' });
      const found = transactions.get(Number(byId[1]));
      return found ? send(res, 200, found) : send(res, 404, { detail: 'Not found.' });
    }

    if (req.method === 'POST' && url.pathname === '/api/acceptance/void_refund/refund') {
      if (auth !== `Token ${PAYMOB_STAND_IN.secretKey}`) return send(res, 401, { detail: 'Invalid token.' });
      const parent = transactions.get(Number(body.transaction_id));
      const amount = Number(body.amount_cents);
      const left = (parent?.amount_cents ?? 0) - (parent?.refunded_amount_cents ?? 0);
      if (!parent?.success || !Number.isInteger(amount) || amount < 1 || amount > left) {
        return send(res, 400, { detail: 'Transaction cannot be refunded' });
      }
      parent.is_refunded = true;
      parent.refunded_amount_cents += amount;
      refunds.push({ transactionId: parent.id, amountCents: amount });
      const intention = [...intentions.values()].find((i) => i.orderId === parent.order.id) as StandInIntention;
      const child = transactionFor(intention, {
        success: true,
        amount_cents: amount,
        has_parent_transaction: true,
        parent_transaction: parent.id,
        data: { message: 'Approved' },
      });
      await callback(parent);
      return send(res, 200, child);
    }

    if (req.method === 'GET' && url.pathname === '/unifiedcheckout/') {
      const intention = intentions.get(url.searchParams.get('clientSecret') ?? '');
      if (!intention || url.searchParams.get('publicKey') !== PAYMOB_STAND_IN.publicKey) {
        res.writeHead(404).end('Unknown checkout');
        return;
      }
      const secret = escapeHtml(intention.clientSecret);
      return page(
        res,
        `<h1>Paymob checkout (stand-in)</h1><p>Pay ${(intention.amount / 100).toFixed(2)} EGP by ${intention.method}.</p>
<form method="post" action="/unifiedcheckout/act"><input type="hidden" name="clientSecret" value="${secret}">
<button name="outcome" value="pay">Pay</button> <button name="outcome" value="decline">Decline</button></form>`,
      );
    }
    if (req.method === 'POST' && url.pathname === '/unifiedcheckout/act') {
      const outcome = body.outcome === 'pay' ? 'pay' : 'decline';
      try {
        const back = await checkout(String(body.clientSecret ?? ''), outcome);
        res.writeHead(303, { location: back }).end();
      } catch {
        res.writeHead(404).end('Unknown checkout');
      }
      return;
    }
    if (req.method === 'GET' && url.pathname === '/kiosk') {
      return page(
        res,
        `<h1>Kiosk (stand-in)</h1><form method="post" action="/kiosk"><label>Bill reference
<input name="bill_reference" inputmode="numeric"></label> <button>Take cash</button></form>`,
      );
    }
    if (req.method === 'POST' && url.pathname === '/kiosk') {
      try {
        await payBill(String(body.bill_reference ?? ''));
        return page(res, '<p role="status">Paid</p>');
      } catch {
        return page(res, '<p role="alert">Unknown bill</p>');
      }
    }
    return send(res, 404, { detail: 'Not found.' });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { detail: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    intentions,
    transactions,
    callbacks,
    refunds,
    requests,
    get dropCallbacks() {
      return state.dropCallbacks;
    },
    set dropCallbacks(value: boolean) {
      state.dropCallbacks = value;
    },
    failNext(status) {
      injected = status;
    },
    reuseOrderNext(orderId) {
      reusedOrder = orderId;
    },
    checkout,
    payBill,
    intentionOfBooking: (bookingId) =>
      [...intentions.values()].reverse().find((i) => i.specialReference.startsWith(`${bookingId}.`)),
    resend: callback,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1]?.endsWith('paymob-stand-in.ts')) {
  const port = Number(process.argv[2] ?? 0);
  startPaymobStandIn({ port }).then((standIn) => console.log(`Paymob stand-in on ${standIn.url}`));
}
