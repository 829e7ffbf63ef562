import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One email as a local SMTP server received it. */
export interface ReceivedMail {
  envelopeTo: string[];
  envelopeFrom: string;
  to: string;
  from: string;
  replyTo: string | undefined;
  subject: string;
  text: string;
  html: string;
  headers: Map<string, unknown>;
  attachments: Array<{ filename?: string; contentType: string; cid?: string; content: Buffer }>;
}

export interface TestSmtpServer {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Stops listening (connections are refused, like an SMTP server that is down). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (npm smtp-server) that keeps what it receives: the stand-in for the
 * outside mail service in tests. Port 0 picks a free port; stop()/start() simulate an outage.
 */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  let server: SMTPServer;
  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream, { skipImageLinks: true }) // the HTML as sent: inline images stay cid: links
          .then((mail) => {
            received.push({
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? ''),
              from: mail.from?.text ?? '',
              replyTo: mail.replyTo?.text,
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
              headers: mail.headers,
              attachments: mail.attachments.map((a) => ({
                filename: a.filename,
                contentType: a.contentType,
                cid: a.cid,
                content: a.content,
              })),
            });
            callback();
          })
          .catch(callback);
      },
    });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = create();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    start: async () => {
      await listen(port);
    },
  };
}
