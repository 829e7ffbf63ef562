import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { CURRENCY } from '../../../contracts/constants';
import { msg } from '../../../contracts/i18n/text';
import { isUuid } from '../../../contracts/ids';
import type {
  PaymentMethod,
  PaymentOutcome,
  PaymentProvider,
  PaymentStart,
  ProviderPayment,
  VerifiedEvent,
} from '../../domain/payments';
import type { AppConfig } from '../../env';
import { AppError } from '../../plugins/errors';

/**
 * Paymob (accept.paymob.com): cards (Meeza included), mobile wallets and cash at a kiosk, in EGP. An intention is
 * created on the server for the method the buyer chose; the buyer pays on Paymob's unified checkout (card,
 * wallet) or at a kiosk against a bill reference (cash). Paymob says what happened in a transaction-processed
 * callback signed with HMAC-SHA512; reconciliation and refunds read the order's transaction back. Decision 019.
 */

type PaymobConfig = NonNullable<AppConfig['paymob']>;

/**
 * The fields of a transaction that Paymob's HMAC covers, in the order it concatenates their values (Paymob's
 * "HMAC calculation" for the transaction-processed callback). `order.id` is `order` in the buyer's redirect.
 */
export const HMAC_FIELDS = [
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
] as const;

type Scalar = string | number | boolean | null | undefined;

/** A value as Paymob writes it into the HMAC's text: booleans as true/false, nothing as an empty string. */
function hmacText(value: Scalar): string {
  if (value === null || value === undefined) return '';
  return String(value);
}

/** The text Paymob signs, from a transaction read through `field` (a dotted path of HMAC_FIELDS). */
export function paymobHmacText(field: (name: (typeof HMAC_FIELDS)[number]) => Scalar): string {
  return HMAC_FIELDS.map((name) => hmacText(field(name))).join('');
}

export function paymobHmac(secret: string, text: string): string {
  return createHmac('sha512', secret).update(text, 'utf8').digest('hex');
}

/** Compares in constant time; anything that is not 128 hex digits is simply not equal. */
function sameHmac(expected: string, given: string): boolean {
  const normalised = given.trim().toLowerCase();
  if (!/^[0-9a-f]{128}$/.test(normalised)) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(normalised, 'hex'));
}

const flag = z.boolean();
/** A transaction as Paymob sends it in a callback and answers it to an inquiry; other fields may be anything. */
const transactionShape = z.looseObject({
  id: z.number().int(),
  pending: flag,
  amount_cents: z.number().int(),
  success: flag,
  is_auth: flag,
  is_capture: flag,
  is_standalone_payment: flag,
  is_voided: flag,
  is_refunded: flag,
  is_3d_secure: flag,
  integration_id: z.number().int(),
  has_parent_transaction: flag,
  order: z.looseObject({ id: z.number().int(), merchant_order_id: z.string().nullish() }),
  created_at: z.string(),
  currency: z.string(),
  error_occured: flag,
  owner: z.number().int(),
  source_data: z
    .looseObject({ pan: z.string().nullish(), sub_type: z.string().nullish(), type: z.string().nullish() })
    .nullish(),
  data: z.looseObject({ message: z.string().nullish() }).nullish(),
  refunded_amount_cents: z.number().int().nullish(),
  parent_transaction: z.number().int().nullish(),
});
type Transaction = z.infer<typeof transactionShape>;

const callbackShape = z.looseObject({ type: z.string(), obj: z.looseObject({}) });

function transactionField(t: Transaction, name: (typeof HMAC_FIELDS)[number]): Scalar {
  switch (name) {
    case 'order.id':
      return t.order.id;
    case 'source_data.pan':
      return t.source_data?.pan;
    case 'source_data.sub_type':
      return t.source_data?.sub_type;
    case 'source_data.type':
      return t.source_data?.type;
    default:
      return t[name];
  }
}

/**
 * Our special_reference is `<booking id>.<attempt>` (Paymob wants each intention's unique, and a buyer may start
 * several): the booking is what comes before the dot of the merchant_order_id Paymob sends back.
 */
export function bookingOfMerchantOrder(merchantOrderId: string | null | undefined): string | null {
  const bookingId = merchantOrderId?.split('.')[0];
  return bookingId && isUuid(bookingId) ? bookingId : null;
}

/** paid, waiting (a kiosk bill not paid yet), refused, or given back. */
function stateOf(t: Transaction): 'succeeded' | 'pending' | 'failed' | 'refunded' {
  if (t.has_parent_transaction || t.is_refunded || t.is_voided) return 'refunded';
  if (t.success && !t.pending) return 'succeeded';
  return t.pending ? 'pending' : 'failed';
}

/** What a verified transaction says about its booking: only a payment taken or refused does. */
function outcomeOf(t: Transaction, bookingId: string): PaymentOutcome | undefined {
  const state = stateOf(t);
  const reference = String(t.order.id);
  if (state === 'succeeded') {
    return { kind: 'succeeded', bookingId, reference, amountPiasters: t.amount_cents, currency: t.currency };
  }
  if (state === 'failed') {
    const message = t.data?.message || 'Declined';
    return { kind: 'attempt-failed', bookingId, reference, failure: { message } };
  }
  return undefined;
}

const intentionAnswer = z.looseObject({
  id: z.string(),
  client_secret: z.string(),
  intention_order_id: z.number().int().nullish(),
  payment_keys: z
    .array(
      z.looseObject({ key: z.string(), integration: z.number().int().nullish(), order_id: z.number().int().nullish() }),
    )
    .nullish(),
});
const kioskAnswer = z.looseObject({
  data: z.looseObject({ bill_reference: z.union([z.number().int(), z.string().min(1)]) }),
});
const tokenAnswer = z.looseObject({ token: z.string().min(1) });

class PaymobHttpError extends Error {
  constructor(
    readonly status: number,
    what: string,
  ) {
    super(`Paymob answered ${status} to ${what}`);
  }
}

/** The buyer's name as Paymob's billing data wants it: a first and a last name, neither empty. */
function splitName(name: string): { first_name: string; last_name: string } {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const first = parts[0] ?? 'Eventry';
  return { first_name: first.slice(0, 50), last_name: (parts.slice(1).join(' ') || first).slice(0, 50) };
}

export interface PaymobReturn {
  /** Paymob's order: our booking's payment reference. */
  orderId: string;
  success: boolean;
  pending: boolean;
}

export interface PaymobProvider extends PaymentProvider {
  /** Verifies the buyer's redirect back from the checkout (its own `hmac`); never a reason to fulfil alone. */
  verifyReturn(query: Record<string, unknown>): PaymobReturn;
  readonly cashHours: number;
}

export function createPaymobProvider(config: PaymobConfig, appUrl: string): PaymobProvider {
  const methods = (['card', 'wallet', 'cash'] as const).filter((m) => config.integrations[m] !== undefined);
  let token: { value: string; until: number } | undefined;

  async function call(path: string, body: unknown, auth: string | undefined, what: string): Promise<unknown> {
    const response = await fetch(`${config.apiUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(auth ? { authorization: auth } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    if (!response.ok) throw new PaymobHttpError(response.status, what);
    return text ? (JSON.parse(text) as unknown) : {};
  }

  /** An auth token made from the API key (Paymob's tokens last an hour; ours is renewed after 50 minutes). */
  async function bearer(): Promise<string> {
    if (!token || token.until < Date.now()) {
      const answer = tokenAnswer.parse(
        await call('/api/auth/tokens', { api_key: config.apiKey }, undefined, 'a token'),
      );
      token = { value: answer.token, until: Date.now() + 50 * 60_000 };
    }
    return `Bearer ${token.value}`;
  }

  /** The order's latest transaction, or undefined when it has none yet. */
  async function transactionOf(orderId: string): Promise<Transaction | undefined> {
    try {
      const answer = await call(
        '/api/ecommerce/orders/transaction_inquiry',
        { order_id: orderId },
        await bearer(),
        'a transaction inquiry',
      );
      return transactionShape.parse(answer);
    } catch (error) {
      if (error instanceof PaymobHttpError && error.status === 404) return undefined;
      throw error;
    }
  }

  /**
   * The order's paying transaction, with what it has given back. The inquiry answers the latest transaction, which
   * after a refund is the refund: its parent is the payment.
   */
  async function paidTransactionOf(orderId: string): Promise<Transaction> {
    const latest = await transactionOf(orderId);
    if (!latest) throw new Error(`Paymob has no transaction for order ${orderId}`);
    const paid =
      latest.has_parent_transaction && latest.parent_transaction
        ? await transactionById(latest.parent_transaction)
        : latest;
    if (!paid.success || paid.pending) throw new Error(`Paymob's transaction ${paid.id} took no money`);
    return paid;
  }

  async function transactionById(id: number): Promise<Transaction> {
    const response = await fetch(`${config.apiUrl}/api/acceptance/transactions/${id}`, {
      headers: { accept: 'application/json', authorization: await bearer() },
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new PaymobHttpError(response.status, 'a transaction');
    return transactionShape.parse(await response.json());
  }

  function verifyWebhook(rawBody: Buffer, hmac: string): VerifiedEvent {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new AppError(400, 'INVALID_EVENT', msg('payment.paymobEventUnreadable'));
    }
    const callback = callbackShape.safeParse(parsed);
    if (!callback.success || callback.data.type !== 'TRANSACTION') {
      throw new AppError(400, 'INVALID_EVENT', msg('payment.paymobEventUnreadable'));
    }
    const transaction = transactionShape.safeParse(callback.data.obj);
    if (!transaction.success) throw new AppError(400, 'INVALID_EVENT', msg('payment.paymobEventUnreadable'));
    const t = transaction.data;
    const expected = paymobHmac(
      config.hmacSecret,
      paymobHmacText((name) => transactionField(t, name)),
    );
    if (!sameHmac(expected, hmac)) throw new AppError(400, 'INVALID_SIGNATURE', msg('payment.paymobSignatureInvalid'));
    return eventOfTransaction(t);
  }

  /** The callback Paymob sends about a transaction in its present state (verified, or read back from Paymob). */
  function eventOfTransaction(t: Transaction): VerifiedEvent {
    const bookingId = bookingOfMerchantOrder(t.order.merchant_order_id);
    return {
      // A transaction is told of again when it changes (a kiosk bill pending, then paid; a payment refunded).
      id: `paymob:${t.id}:${stateOf(t)}`,
      type: `transaction.${stateOf(t)}`,
      bookingId,
      outcome: bookingId ? outcomeOf(t, bookingId) : undefined,
    };
  }

  function verifyReturn(query: Record<string, unknown>): PaymobReturn {
    const value = (name: string): string | undefined => {
      const v = query[name];
      return typeof v === 'string' ? v : undefined;
    };
    const orderId = value('order') ?? value('order_id');
    const hmac = value('hmac');
    if (!orderId || !/^\d{1,20}$/.test(orderId) || !hmac) {
      throw new AppError(400, 'INVALID_SIGNATURE', msg('payment.paymobSignatureMissing'));
    }
    const text = paymobHmacText((name) => (name === 'order.id' ? orderId : value(name)));
    if (!sameHmac(paymobHmac(config.hmacSecret, text), hmac)) {
      throw new AppError(400, 'INVALID_SIGNATURE', msg('payment.paymobSignatureInvalid'));
    }
    return { orderId, success: value('success') === 'true', pending: value('pending') === 'true' };
  }

  async function start(booking: PaymentStart): Promise<ProviderPayment> {
    const method: PaymentMethod = booking.method ?? 'card';
    const integration = config.integrations[method];
    if (integration === undefined || !booking.buyer || !booking.item) {
      throw new Error(`Paymob cannot take ${method} payments as configured`);
    }
    const { item, buyer } = booking;
    const seconds = booking.payBy ? Math.max(60, Math.ceil((booking.payBy.getTime() - Date.now()) / 1000)) : 3600;
    const answer = intentionAnswer.parse(
      await call(
        '/v1/intention/',
        {
          // Integer piasters, as Paymob's amount_cents; the items add up to it exactly.
          amount: booking.totalPiasters,
          currency: CURRENCY,
          payment_methods: [integration],
          items: [
            {
              name: item.title.slice(0, 50),
              amount: item.unitPricePiasters,
              description: item.title.slice(0, 255),
              quantity: item.quantity,
            },
          ],
          billing_data: { ...splitName(buyer.name), email: buyer.email, phone_number: buyer.phone },
          customer: { ...splitName(buyer.name), email: buyer.email },
          special_reference: `${booking.id}.${Date.now().toString(36)}`,
          notification_url: `${appUrl}/api/payments/paymob/callback`,
          redirection_url: `${appUrl}/api/payments/paymob/return`,
          expiration: seconds,
          extras: { bookingId: booking.id },
        },
        `Token ${config.secretKey}`,
        'an intention',
      ),
    );
    const orderId = answer.intention_order_id ?? answer.payment_keys?.[0]?.order_id;
    if (orderId === null || orderId === undefined) throw new Error('Paymob answered an intention without its order');
    const payment: ProviderPayment = {
      reference: String(orderId),
      status: 'intended',
      clientSecret: undefined,
      bookingId: booking.id,
      amountPiasters: booking.totalPiasters,
      lastErrorMessage: undefined,
      currency: CURRENCY.toLowerCase(),
    };
    if (method !== 'cash') {
      const checkout = new URL(`${config.checkoutUrl}/unifiedcheckout/`);
      checkout.searchParams.set('publicKey', config.publicKey);
      checkout.searchParams.set('clientSecret', answer.client_secret);
      return { ...payment, checkoutUrl: checkout.toString() };
    }
    // Kiosk cash: the intention's payment key pays through the kiosk aggregator, which answers a bill reference.
    const key = answer.payment_keys?.find((k) => k.integration === integration)?.key ?? answer.payment_keys?.[0]?.key;
    if (!key) throw new Error('Paymob answered a cash intention without a payment key');
    const kiosk = kioskAnswer.parse(
      await call(
        '/api/acceptance/payments/pay',
        { source: { identifier: 'AGGREGATOR', subtype: 'AGGREGATOR' }, payment_token: key },
        undefined,
        'a kiosk payment',
      ),
    );
    return { ...payment, status: 'pending', cashReference: String(kiosk.data.bill_reference) };
  }

  return {
    name: 'paymob',
    publishableKey: undefined,
    methods,
    cashHours: config.cashHours,
    start,
    async status(reference) {
      const t = await transactionOf(reference);
      const state = t ? stateOf(t) : 'none';
      return {
        reference: t ? String(t.order.id) : reference,
        status: state,
        clientSecret: undefined,
        bookingId: t ? (bookingOfMerchantOrder(t.order.merchant_order_id) ?? undefined) : undefined,
        amountPiasters: t?.amount_cents ?? 0,
        lastErrorMessage: state === 'failed' ? (t?.data?.message ?? undefined) : undefined,
        currency: t?.currency.toLowerCase(),
      };
    },
    // An intention cannot be called off; it expires at the hold's end (its `expiration`), and money taken later
    // is refunded by settlement.
    cancel: async () => {},
    async refund(reference, { amountPiasters, refundedBefore = 0 }) {
      const paid = await paidTransactionOf(reference);
      const amount = amountPiasters ?? paid.amount_cents - refundedBefore;
      // Paymob keys refunds by nothing of ours: what the payment has given back says whether this one was made.
      if ((paid.refunded_amount_cents ?? 0) >= refundedBefore + amount) return;
      await call(
        '/api/acceptance/void_refund/refund',
        { transaction_id: paid.id, amount_cents: amount },
        `Token ${config.secretKey}`,
        'a refund',
      );
    },
    verifyWebhook,
    verifyReturn,
    verifyConfirm: undefined,
    async eventOf(reference) {
      const t = await transactionOf(reference);
      return t ? eventOfTransaction(t) : undefined;
    },
  };
}
