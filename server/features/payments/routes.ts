import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paymentConfigSchema, paymentResultSchema, simulatedConfirmBodySchema } from '../../../contracts/bookings';
import { todayIn } from '../../../contracts/dates';
import { msg } from '../../../contracts/i18n/text';
import { problemSchema } from '../../../contracts/problem';
import type { PaymentProvider } from '../../domain/payments';
import { AppError, NotFoundError } from '../../plugins/errors';

/**
 * HTTP routes of payments: which provider is in use, the simulated processor's confirm and Stripe's webhook.
 * The provider verifies what happened; the booking module (app.ticketing) settles it.
 */
export const paymentsRoutes: FastifyPluginAsyncZod<{ provider: PaymentProvider; timeZone: string }> = async (
  app,
  { provider, timeZone },
) => {
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
      provider.name === 'stripe'
        ? { provider: 'stripe' as const, publishableKey: provider.publishableKey }
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
      if (!provider.verifyConfirm) throw new NotFoundError(msg('payment.simulatedNotInUse'));
      const outcome = provider.verifyConfirm(request.body, todayIn(timeZone));
      const result = await app.ticketing.settleConfirmed(user.id, outcome, request.log);
      // Built from two known fields, so written as it is (the on-sale's second hottest answer; the schema stays
      // for the API description and every other status), like POST /api/bookings' 201.
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
        if (provider.name !== 'stripe' || !provider.verifyWebhook) {
          throw new NotFoundError(msg('payment.webhooksNotConfigured'));
        }
        const signature = request.headers['stripe-signature'];
        const raw = request.body;
        if (typeof signature !== 'string' || !Buffer.isBuffer(raw)) {
          throw new AppError(400, 'INVALID_SIGNATURE', msg('payment.signatureMissing'));
        }
        const event = provider.verifyWebhook(raw, signature);
        const { duplicate } = await app.ticketing.settleEvent(event, request.log);
        return { received: true, duplicate };
      },
    );
  });
};
