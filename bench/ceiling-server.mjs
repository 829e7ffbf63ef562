// The ceiling for the API rows: a bare Fastify server with no plugins, answering each URL with a JSON body
// held in memory (the bytes our app returned for that URL). Started by bench/run.ts as a separate process.
// Usage: node bench/ceiling-server.mjs <bodies.json>   (bodies.json: { "<url with query>": "<json text>" }; a key
// 'POST <url>' is the answer to a POST of that url). Keys carry their query string: '/api/admin/dashboard?from=…'.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const bodies = new Map(Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8'))));
const app = Fastify({ logger: false });
const answer = async (request, reply) => {
  const body = bodies.get(request.url);
  if (body === undefined) return reply.code(404).send({ error: 'unknown url' });
  return reply.type('application/json; charset=utf-8').send(body);
};
// POSTs answer the body kept under 'POST <url>' (the check-in row: the bare route beside POST /api/check-in).
const answerPost = async (request, reply) => {
  const body = bodies.get(`POST ${request.url}`);
  if (body === undefined) return reply.code(404).send({ error: 'unknown url' });
  return reply.type('application/json; charset=utf-8').send(body);
};
app.get('/api/events', answer);
app.post('/api/check-in', answerPost);
app.get('/api/events/:id', answer);
app.get('/api/admin/dashboard', answer);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${new URL(address).port}\n`);
const stop = () => app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
