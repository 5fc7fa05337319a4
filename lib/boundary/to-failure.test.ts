/** The error policy's log line (issue 22 §6): an unexpected error is logged without its message, which may quote content. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, DatasetError, ExecutorError } from '../harness';
import { toFailure, withoutServerPaths } from './to-failure';

describe('toFailure on a dataset that could not be loaded', () => {
  it("names the file at fault but not the server's directories", () => {
    const f = toFailure(new DatasetError('.', 'dataset directory not found: /srv/stockroom/extra/kittiwake-v2'), 'test');
    expect(f).toEqual({ status: 400, code: 'dataset', error: 'The dataset could not be loaded: .: dataset directory not found: kittiwake-v2' });
    expect(toFailure(new ConfigError('mcp-servers', '/etc/stockroom/mcp-servers.json is not JSON: Unexpected token'), 'test').error).toBe('mcp-servers.json is not JSON: Unexpected token');
    expect(toFailure(new ConfigError('STOCKROOM_MODEL_BASE_URL', "STOCKROOM_MODEL_BASE_URL must be an http(s) URL; got 'http://127.0.0.1:8000/v1'"), 'test').error).toContain("'http://127.0.0.1:8000/v1'");
    expect(toFailure(new ExecutorError('mcp-stdio', 'spawn /opt/tools/bin/inventory-server ENOENT'), 'test').error).toBe('The tool transport failed: spawn inventory-server ENOENT');
    expect(withoutServerPaths("/home/app/data/orders.json, line 3: bad; see 'http://x.test/a/b' and policy_docs/a.md")).toBe("orders.json, line 3: bad; see 'http://x.test/a/b' and policy_docs/a.md");
  });
});

describe('toFailure on an unexpected error', () => {
  afterEach(() => vi.restoreAllMocks());

  it('answers 500 with a reference, and logs the class, code and frames but not the message', () => {
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
    const err = Object.assign(new Error('Invalid `prisma.run.create()` invocation: { finalAnswer: "the customer’s secret prompt" }'), { code: 'P2000' });
    const f = toFailure(err, 'test');
    expect(f).toMatchObject({ status: 500, code: 'internal' });
    const ref = /ref (\w+)/.exec(f.error)?.[1];
    expect(logged.join('\n')).toContain(`ref ${ref}`);
    expect(logged.join('\n')).toContain('Error (P2000)');
    expect(logged.join('\n')).not.toContain('secret prompt');
  });
});

describe('toFailure when the database cannot be reached', () => {
  it('answers 503 in the caller’s own words, with no error reference, for a real refused PostgreSQL connection', async () => {
    const net = await import('node:net');
    // A port nothing listens on: taken and released, so the connection is refused at once.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const { openDatabase } = await import('../db/core/client');
    const db = openDatabase(`postgresql://postgres@127.0.0.1:${port}/absent`);
    const err = await db.prisma.approvalRequest.findFirst().then(
      () => null,
      (e: unknown) => e,
    );
    await db.close();
    expect(err).not.toBeNull();
    const words = 'Your decision was not recorded: the database is unavailable. Nothing changed; send it again.';
    expect(toFailure(err, 'decideApproval', { unavailable: words })).toEqual({ status: 503, code: 'db_unavailable', error: words, retryAfterS: 5 });
    expect(toFailure(err, 'other')).toMatchObject({ status: 503, code: 'db_unavailable', error: expect.not.stringContaining('ref ') });
  });

  it('keeps a statement that failed on a reachable database an internal error', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(toFailure(Object.assign(new Error('unique constraint'), { code: 'P2002' }), 'test')).toMatchObject({ status: 500, code: 'internal' });
  });
});
