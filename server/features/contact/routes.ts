import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contactFormSchema, contactResponseSchema, mailboxResponseSchema } from '../../../contracts/contact';
import { msg } from '../../../contracts/i18n/text';
import type { AppConfig } from '../../env';
import { requestLang } from '../../plugins/i18n';
import { registerSharedRateLimit } from '../../plugins/shared-rate-limit';
import { createContactService } from './service';

/** Messages a single IP address may send per minute. */
export const CONTACT_RATE_LIMIT = { max: 5, timeWindow: 60_000 } as const;

/** POST /api/contact (anyone) and GET /api/admin/mailbox (admins: the latest emails of the outbox). */
export const contactRoutes: FastifyPluginAsyncZod<{
  config: Pick<AppConfig, 'contactTo' | 'mailFrom' | 'smtpUrl'>;
}> = async (app, opts) => {
  const contact = createContactService({ db: app.database.db, config: opts.config });
  // Scoped to this plugin: only routes that ask for it are limited, counted in the database for every process.
  await registerSharedRateLimit(app, {
    name: 'contact',
    message: (seconds) => msg('contact.tooManyMessages', { count: seconds }),
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
      const result = await contact.sendContactMessage(request.body, requestLang(request));
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
