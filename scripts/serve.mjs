#!/usr/bin/env node
/**
 * The production server (`npm start` runs it after `next build`): Next's request handler behind a
 * plain node:http server, so every request is stamped with the client address the deployment
 * trusts before the app sees it (scripts/client-address.mjs; STOCKROOM_TRUST_PROXY). `next start`
 * cannot do this: it fills X-Forwarded-For from the socket only when the client sent none.
 *
 *   node scripts/serve.mjs            # HOST (default 127.0.0.1), PORT (default 3000)
 */
import http from 'node:http';
import { parseTrustProxy, stampClientAddress } from './client-address.mjs';
import { REPO_ROOT } from './db-url.mjs';

function fail(message) {
  console.error(`serve: ${message}`);
  process.exit(1);
}

async function main() {
  const hostname = process.env.HOST || '127.0.0.1';
  const port = Number(process.env.PORT || '3000');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`PORT must be an integer from 0 to 65535, got '${process.env.PORT}'`);
  let trustProxy;
  try {
    trustProxy = parseTrustProxy(process.env.STOCKROOM_TRUST_PROXY);
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  // What `next start` does: the production server runs with NODE_ENV=production.
  process.env.NODE_ENV = 'production';
  const { default: next } = await import('next');
  const app = next({ dev: false, dir: REPO_ROOT, hostname, port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = http.createServer((req, res) => {
    stampClientAddress(req, trustProxy);
    handle(req, res).catch((err) => {
      console.error('serve: request failed', err);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal Server Error');
    });
  });
  server.listen(port, hostname, () => {
    const address = server.address();
    const shown = typeof address === 'object' && address ? address.port : port;
    console.log(`serve: ready on http://${hostname}:${shown} (client addresses from ${trustProxy ? 'the proxy\'s X-Forwarded-For' : 'the TCP peer'})`);
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      server.close(() => process.exit(0));
      setTimeout(() => process.exit(0), 5_000).unref();
    });
  }
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
