import { createServer } from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A stand-in for the outside SMTP server during browser tests: it accepts every message on
 * 127.0.0.1 and lists what it received over HTTP (GET /messages), so tests can open emailed links.
 */
export interface CapturedMail {
  to: string[];
  from: string;
  replyTo: string | undefined;
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

const [smtpPort, httpPort] = process.argv.slice(2).map(Number);
const received: CapturedMail[] = [];

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          replyTo: mail.replyTo?.text,
          subject: mail.subject ?? '',
          text: mail.text ?? '',
          html: typeof mail.html === 'string' ? mail.html : '',
          receivedAt: new Date().toISOString(),
        });
        callback();
      })
      .catch(callback);
  },
});
smtp.listen(smtpPort, '127.0.0.1');

createServer((req, res) => {
  if (req.url === '/health') return void res.end('ok');
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(received));
}).listen(httpPort, '127.0.0.1');
