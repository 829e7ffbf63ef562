import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contactFormSchema, contactResponseSchema, mailboxResponseSchema } from '../../../contracts/contact';
import type { AppConfig } from '../../env';
import { AppError } from '../../plugins/errors';
import { createContactService } from './service';

/** Messages a single IP address may send per minute. */
export const CONTACT_RATE_LIMIT = { max: 5, timeWindow: 60_000 } as const;

/** POST /api/contact (anyone) and GET /api/admin/mailbox (admins: the latest emails of the outbox). */
export const contactRoutes: FastifyPluginAsyncZod<{
  config: Pick<AppConfig, 'contactTo' | 'mailFrom' | 'smtpUrl'>;
}> = async (app, opts) => {
  const contact = createContactService({ db: app.database.db, config: opts.config });
  // Scoped to this plugin: only routes that ask for it are limited. The count lives in this process's
  // memory, so with N app processes an address may send up to N × max a minute; that is enough to stop a flood.
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        429,
        'RATE_LIMITED',
        `You have sent too many messages. Please wait ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds and try again.`,
      ),
  });

  app.post(
    '/api/contact',
    {
      config: { rateLimit: CONTACT_RATE_LIMIT },
      bodyLimit: 32 * 1024,
      schema: {
        tags: ['contact'],
        summary: 'Send a message to the Eventry team (contact form)',
        body: contactFormSchema,
        response: { 201: contactResponseSchema },
      },
    },
    async (request, reply) => {
      const result = await contact.sendContactMessage(request.body);
      return reply.status(201).send(result);
    },
  );

  app.get(
    '/api/admin/mailbox',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'The latest emails (dev mailbox when SMTP_URL is unset)',
        response: { 200: mailboxResponseSchema },
      },
    },
    async () => contact.getMailbox(),
  );
};
