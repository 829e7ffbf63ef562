import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, setupTestApp } from '../test/helpers';

/**
 * Requests that Node's HTTP parser refuses never reach a route or an inject(): they are sent here as raw
 * bytes to a listening server, and must still be answered in our problem format.
 */
const logLines: Array<Record<string, unknown>> = [];
const ctx = await setupTestApp({
  config: { logLevel: 'info' },
  logStream: new Writable({
    write(chunk, _encoding, done) {
      logLines.push(JSON.parse(String(chunk)));
      done();
    },
  }),
});
let port = 0;

beforeAll(async () => {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as { port: number }).port;
});
afterAll(() => ctx.close());

/** Writes `raw` and reads until the server closes the connection. */
function exchange(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve(text) : reject(error)));
    socket.on('close', () => resolve(text));
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
  });
}

function parse(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) as Record<string, unknown> };
}

describe('requests the HTTP parser refuses', () => {
  it.each([
    ['a control character in a header', 'GET /api/health HTTP/1.1\r\nHost: x\r\nX-Odd: a\x7fb\r\n\r\n'],
    ['a Content-Length that is not a number', 'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
    [
      'both Transfer-Encoding and Content-Length',
      'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    ['a malformed request line', 'GET /api/health HTTP/9.x\r\n\r\n'],
  ])('answers %s with a 400 problem', async (_name, raw) => {
    const answer = parse(await exchange(raw));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(answer.body).toMatchObject({ status: 400, code: 'BAD_REQUEST', title: 'Bad Request' });
  });

  it('answers headers over the size limit with a 431 problem', async () => {
    const answer = parse(await exchange(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(answer.status).toBe(431);
    expect(answer.body).toMatchObject({ status: 431, code: 'HEADERS_TOO_LARGE' });
  });

  it('logs a client that hangs up in the middle of its body as that, not as the database being down', async () => {
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":"a',
        );
        setTimeout(() => socket.destroy(), 100);
      });
      socket.on('close', () => resolve());
    });
    const closed = await eventually(
      async () => logLines.filter((line) => line.msg === 'client closed the request'),
      (lines) => lines.length > 0,
      'the log line of the aborted request',
    );
    expect(closed[0]).toMatchObject({ level: 30, method: 'POST', url: '/api/contact' });
    expect(logLines.filter((line) => Number(line.level) >= 40)).toEqual([]);
  });

  it('keeps serving well-formed requests afterwards', async () => {
    const answer = await exchange('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer.startsWith('HTTP/1.1 200')).toBe(true);
  });
});
