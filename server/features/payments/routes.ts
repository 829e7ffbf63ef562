import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  paymentConfigSchema,
  paymentResultSchema,
  paymobStartAnswerSchema,
  paymobStartBodySchema,
  simulatedConfirmBodySchema,
} from '../../../contracts/bookings';
import { todayIn } from '../../../contracts/dates';
import { msg } from '../../../contracts/i18n/text';
import { problemSchema } from '../../../contracts/problem';
import type { PaymentProviders } from '../../domain/payments';
import { AppError, NotFoundError } from '../../plugins/errors';
import type { PaymobProvider } from './paymob';

/**
 * HTTP routes of payments: the ways to pay configured, the simulated processor's confirm, Stripe's webhook, and
 * Paymob's start, callback and the buyer's return. A provider verifies what happened; the booking module
 * (app.ticketing) settles it.
 */
export const paymentsRoutes: FastifyPluginAsyncZod<{
  providers: PaymentProviders;
  paymob: PaymobProvider | undefined;
  timeZone: string;
}> = async (app, { providers, paymob, timeZone }) => {
  const simulated = providers.get('simulated');
  const stripe = providers.get('stripe');
  const choices = providers.all.flatMap((p) => p.methods.map((method) => ({ provider: p.name, method })));
  app.get(
    '/api/payments/config',
    {
      schema: {
        tags: ['payments'],
        summary: 'The ways to pay configured (and Stripe’s publishable key)',
        response: { 200: paymentConfigSchema },
      },
    },
    async () => ({
      provider: providers.primary?.name ?? null,
      ...(stripe?.publishableKey ? { publishableKey: stripe.publishableKey } : {}),
      choices,
      timeZone,
    }),
  );

  app.post(
    '/api/payments/paymob/start',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['payments'],
        summary:
          'Pay a held booking with Paymob: card and wallet answer the checkout to go to, kiosk cash its bill reference',
        body: paymobStartBodySchema,
        response: {
          200: paymobStartAnswerSchema,
          400: problemSchema,
          401: problemSchema,
          404: problemSchema,
          409: problemSchema,
          422: problemSchema,
          502: problemSchema,
        },
      },
    },
    async (request) => {
      const user = await request.user();
      if (!paymob) throw new NotFoundError(msg('payment.paymobNotConfigured'), 'PAYMOB_NOT_CONFIGURED');
      return app.ticketing.startChosenPayment(
        {
          bookingId: request.body.bookingId,
          userId: user.id,
          provider: paymob,
          method: request.body.method,
          phone: request.body.phone,
          cashHours: paymob.cashHours,
        },
        request.log,
      );
    },
  );

  app.get(
    '/api/payments/paymob/return',
    {
      schema: {
        tags: ['payments'],
        summary:
          'The buyer back from Paymob’s checkout (signed): the booking is read back from Paymob, then the outcome page',
        querystring: z.record(z.string(), z.string().max(2000)),
        response: { 303: z.null(), 400: problemSchema, 404: problemSchema },
      },
    },
    async (request, reply) => {
      if (!paymob) throw new NotFoundError(msg('payment.paymobNotConfigured'), 'PAYMOB_NOT_CONFIGURED');
      const back = paymob.verifyReturn(request.query);
      // Never fulfilled from the redirect: the booking module asks Paymob itself.
      const booking = await app.ticketing.returnFromProvider(paymob, back.orderId, request.log);
      if (!booking) {
        request.log.warn({ orderId: back.orderId }, 'a Paymob return for no booking of ours');
        return reply.redirect('/payment-failed', 303);
      }
      if (booking.status === 'paid' || (booking.status === 'pending' && (back.success || back.pending))) {
        return reply.redirect(`/payment-success?booking=${booking.id}`, 303);
      }
      return reply.redirect(`/payment-failed?event=${booking.eventId}`, 303);
    },
  );

  app.post(
    '/api/payments/simulated/confirm',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['payments'],
        summary: 'Pay a booking with the simulated card processor (Stripe test-mode cards)',
        body: simulatedConfirmBodySchema,
        response: {
          200: paymentResultSchema,
          400: problemSchema,
          401: problemSchema,
          402: problemSchema,
          404: problemSchema,
          409: problemSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await request.user();
      if (!simulated?.verifyConfirm) throw new NotFoundError(msg('payment.simulatedNotInUse'));
      const outcome = simulated.verifyConfirm(request.body, todayIn(timeZone));
      const result = await app.ticketing.settleConfirmed(user.id, outcome, request.log);
      // Built from two known fields, so written as it is (the on-sale's second hottest answer; the schema stays
      // for the API description and every other status), like POST /api/bookings' 201.
      return reply.serializer(JSON.stringify).send(result);
    },
  );

  // Stripe and Paymob sign what they sent: these routes (and only these) keep the body raw.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    webhook.post(
      '/api/payments/stripe/webhook',
      {
        schema: {
          tags: ['payments'],
          summary: 'Stripe events (signature-verified on the raw body)',
          response: { 200: z.object({ received: z.boolean(), duplicate: z.boolean() }), 400: problemSchema },
        },
      },
      async (request) => {
        if (!stripe?.verifyWebhook) throw new NotFoundError(msg('payment.webhooksNotConfigured'));
        const signature = request.headers['stripe-signature'];
        const raw = request.body;
        if (typeof signature !== 'string' || !Buffer.isBuffer(raw)) {
          throw new AppError(400, 'INVALID_SIGNATURE', msg('payment.signatureMissing'));
        }
        const event = stripe.verifyWebhook(raw, signature);
        const { duplicate } = await app.ticketing.settleEvent(stripe, event, request.log);
        return { received: true, duplicate };
      },
    );
    webhook.post(
      '/api/payments/paymob/callback',
      {
        schema: {
          tags: ['payments'],
          summary: 'Paymob’s transaction-processed callback (HMAC-SHA512 in ?hmac=, verified before anything else)',
          querystring: z.looseObject({ hmac: z.string().max(256).optional() }),
          response: { 200: z.object({ received: z.boolean(), duplicate: z.boolean() }), 400: problemSchema },
        },
      },
      async (request) => {
        if (!paymob?.verifyWebhook) throw new NotFoundError(msg('payment.paymobNotConfigured'));
        const { hmac } = request.query as Record<string, unknown>;
        const raw = request.body;
        if (typeof hmac !== 'string' || !hmac || !Buffer.isBuffer(raw)) {
          request.log.warn('a Paymob callback without its hmac');
          throw new AppError(400, 'INVALID_SIGNATURE', msg('payment.paymobSignatureMissing'));
        }
        let event: ReturnType<NonNullable<PaymobProvider['verifyWebhook']>>;
        try {
          event = paymob.verifyWebhook(raw, hmac);
        } catch (error) {
          request.log.warn({ err: error }, 'a Paymob callback refused');
          throw error;
        }
        const { duplicate } = await app.ticketing.settleEvent(paymob, event, request.log);
        return { received: true, duplicate };
      },
    );
  });
};
