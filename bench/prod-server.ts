/**
 * The production server (scripts/start.mjs: next build when stale, then next start) for benchmarks
 * that measure pages over HTTP, on a port the system picks, and the requests they make of it: sign
 * in as a user, GET a page n times.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../lib/db/testing/pg-cluster';

export interface ProdServer {
  base: string;
  /** The server process's id (scripts/start.mjs; the server runs in its process tree). */
  pid: number | undefined;
  close(): void;
}

async function waitForServer(child: ChildProcess, base: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      const r = await fetch(`${base}/sign-in`, { redirect: 'manual' });
      if (r.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer on ${base} within ${ms} ms`);
}

/** Starts the server on `databaseUrl`; resolves once it answers. `env` adds to the process's environment. */
export async function startProdServer(databaseUrl: string, env: Record<string, string> = {}): Promise<ProdServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['scripts/start.mjs'], {
    env: { ...process.env, ...env, PORT: String(port), DATABASE_URL: databaseUrl, BETTER_AUTH_SECRET: 'bench-secret-0123456789-0123456789-abcdef', BETTER_AUTH_URL: base },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForServer(server, base, 600_000);
  } catch (err) {
    server.kill('SIGTERM');
    throw err;
  }
  return { base, pid: server.pid, close: () => void server.kill('SIGTERM') };
}

/** Signs in by email and password; resolves the session cookie. */
export async function signIn(base: string, email: string, password: string): Promise<string> {
  const r = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email, password }),
  });
  if (!r.ok) throw new Error(`sign-in failed: HTTP ${r.status} ${await r.text()}`);
  return r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/** `n` GETs of `url`, one after another: each one's time (the whole body read) and the last body's size. A status other than 200 throws. */
export async function sampleGets(url: string, cookie: string, n: number, headers: Record<string, string> = {}, redirect: RequestRedirect = 'manual'): Promise<{ ms: number[]; bytes: number }> {
  const ms: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await fetch(url, { headers: { cookie, ...headers }, redirect });
    bytes = (await r.arrayBuffer()).byteLength;
    const t = performance.now() - t0;
    if (r.status !== 200) throw new Error(`GET ${url} answered ${r.status}${r.headers.get('location') ? ` (to ${r.headers.get('location')})` : ''}`);
    ms.push(t);
  }
  return { ms, bytes };
}
