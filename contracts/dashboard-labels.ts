import type { MessageKey } from './i18n/types';

/**
 * The dashboard's names the web app needs at run time, without zod (contracts/dashboard.ts re-exports them): the
 * dashboard's chunk then carries no schema code.
 */

/** The admin live stream's message when sales or check-ins of an event moved. */
export const LIVE_SALES_EVENT = 'sales';

/** How a booking was paid. */
export const PAYMENT_METHODS = ['simulated', 'stripe', 'paymob-card', 'paymob-wallet', 'paymob-cash'] as const;
export type PaymentMethodKey = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_LABELS = {
  simulated: 'dashboard.methods.simulated',
  stripe: 'dashboard.methods.stripe',
  'paymob-card': 'dashboard.methods.paymobCard',
  'paymob-wallet': 'dashboard.methods.paymobWallet',
  'paymob-cash': 'dashboard.methods.paymobCash',
} as const satisfies Record<PaymentMethodKey, MessageKey>;
