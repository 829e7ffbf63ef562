import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paymentConfigSchema, paymentResultSchema, simulatedConfirmBodySchema } from '../../../contracts/bookings';
import { problemSchema } from '../../../contracts/problem';
import { AppError, NotFoundError } from '../../plugins/errors';
import { confirmSimulated, handleStripeEvent, SimulatedPayer } from './service';

/** HTTP routes of payments: which provider, the simulated processor's confirm, Stripe's webhook. */
export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const payments = app.payments;
  const payer = new SimulatedPayer(app.database.pool, payments.recentHolds);

  app.get(
    '/api/payments/config',
    {
      schema: {
        tags: ['payments'],
        summary: 'The card provider in use (and Stripe’s publishable key)',
        response: { 200: paymentConfigSchema },
      },
    },
    async () =>
      payments.provider === 'stripe'
        ? { provider: 'stripe' as const, publishableKey: payments.publishableKey }
        : { provider: 'simulated' as const },
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
      const result = await confirmSimulated(db, app.database.pool, payer, payments, user.id, request.body, request.log);
      // Built here from two known fields, so written as it is (the on-sale's second hottest answer; the
      // schema stays for the API description and every other status), like POST /api/bookings' 201.
      return reply.serializer(JSON.stringify).send(result);
    },
  );

  // Stripe signs the exact bytes it sent: this route (and only this one) keeps the body raw.
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
        const stripe = payments.stripe;
        if (!stripe?.webhookConfigured) throw new NotFoundError('Stripe webhooks are not configured');
        const signature = request.headers['stripe-signature'];
        const raw = request.body;
        if (typeof signature !== 'string' || !Buffer.isBuffer(raw)) {
          throw new AppError(400, 'INVALID_SIGNATURE', 'Missing Stripe signature');
        }
        let event: ReturnType<typeof stripe.verifyWebhook>;
        try {
          event = stripe.verifyWebhook(raw, signature);
        } catch {
          throw new AppError(400, 'INVALID_SIGNATURE', 'The Stripe signature is invalid or too old');
        }
        const { duplicate } = await handleStripeEvent(db, payments, event, request.log);
        return { received: true, duplicate };
      },
    );
  });
};
