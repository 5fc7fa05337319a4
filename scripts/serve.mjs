#!/usr/bin/env node
/**
 * The production server (`npm start` runs it after `next build`): Next's request handler behind a
 * plain node:http server, so every request is stamped with the client address the deployment
 * trusts before the app sees it (scripts/client-address.mjs; STOCKROOM_TRUST_PROXY). `next start`
 * cannot do this: it fills X-Forwarded-For from the socket only when the client sent none.
 *
 *   node scripts/serve.mjs            # HOST (default 127.0.0.1), PORT (default 3000)
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import { parseTrustProxy, stampClientAddress } from './client-address.mjs';
import { REPO_ROOT } from './db-url.mjs';

/**
 * Each request's state, where the data layer notes that the database was unavailable while serving it
 * (lib/db/core/unavailable-guard.ts reads it through the same global symbol).
 */
const requestState = new AsyncLocalStorage();
globalThis[Symbol.for('stockroom.request-state')] = requestState;

/** Seconds a browser or load balancer is asked to wait before asking again (Retry-After, Refresh). */
const UNAVAILABLE_RETRY_AFTER_S = 5;

/**
 * A page that failed because the database is unavailable is rendered by its error boundary (which
 * says so) with Next's status 500; answer it 503 with Retry-After instead, and Refresh so a browser
 * without script comes back by itself. Route handlers set their own 503 (lib/boundary/to-failure.ts).
 */
function answerUnavailableAs503(req, res, state) {
  // A browser's page load (not an RSC fetch or an API call) also gets Refresh.
  const document = req.method === 'GET' && String(req.headers.accept ?? '').includes('text/html') && !req.headers.rsc;
  const writeHead = res.writeHead;
  res.writeHead = function patchedWriteHead(status, ...rest) {
    if (status >= 500 && state.dbUnavailable) {
      res.statusCode = 503;
      res.setHeader('retry-after', String(UNAVAILABLE_RETRY_AFTER_S));
      res.setHeader('cache-control', 'no-store');
      if (document) res.setHeader('refresh', String(UNAVAILABLE_RETRY_AFTER_S));
      return writeHead.call(this, 503, ...rest);
    }
    return writeHead.call(this, status, ...rest);
  };
}

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
    const state = { dbUnavailable: null };
    answerUnavailableAs503(req, res, state);
    requestState.run(state, () =>
      handle(req, res).catch((err) => {
        console.error('serve: request failed', err);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('Internal Server Error');
      }),
    );
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
