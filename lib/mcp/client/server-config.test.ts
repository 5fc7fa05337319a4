/**
 * Issue 24 §6: the configuration people already have. The `mcp.json` shape of Claude Desktop,
 * Cursor and VS Code is read beside our own; `${VAR}` fills env, args, URLs and headers; a stdio
 * server (a real child process) gets exactly its declared environment plus PATH and HOME; secrets
 * never appear in what the Tools page shows; the bundled file follows the dashboard's own address.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../harness/errors';
import { loadDataset } from '../../stockroom/dataset/load-dataset';
import { createExecutor } from './create-executor';
import type { McpToolExecutor } from './mcp-executor';
import { REPO_ROOT } from '../shared/paths';
import { loadMcpServers, resolveServer, summarise } from './server-config';
import { strangerCommand } from '../testing/stranger-process';
import { hasOwn, OWN_DATASET_DIR } from '../test-support';

function file(value: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-json-'));
  const at = path.join(dir, 'mcp.json');
  writeFileSync(at, JSON.stringify(value));
  return at;
}

const [node, ...strangerArgs] = strangerCommand();
const CLAUDE = {
  mcpServers: {
    shelf: { command: node, args: [...strangerArgs, '--token', '${SHELF_TOKEN}'], env: { SHELF_TOKEN: '${SHELF_TOKEN}', REGION: 'eu-north' } },
    remote: { url: 'https://mcp.example.test/mcp?api_key=${REMOTE_KEY}', headers: { Authorization: 'Bearer ${REMOTE_KEY}' } },
  },
};
const ENV = { PATH: process.env.PATH, HOME: '/home/someone', SHELF_TOKEN: 'shelf-secret-1', REMOTE_KEY: 'remote-secret-2', AWS_SECRET_ACCESS_KEY: 'never-passed' };

describe("the mcp.json shape of Claude Desktop, Cursor and VS Code", () => {
  it('reads mcpServers: command with args and env, url with headers, ${VAR} filled from the environment', () => {
    const servers = loadMcpServers(file(CLAUDE));
    expect(servers.map((s) => s.id)).toEqual(['shelf', 'remote']);
    const shelf = resolveServer(servers, 'shelf', ENV);
    expect(shelf).toMatchObject({ kind: 'stdio', command: [node, ...strangerArgs, '--token', 'shelf-secret-1'] });
    // Exactly the declared variables, plus PATH and HOME: nothing else of the dashboard's.
    expect(shelf.kind === 'stdio' && shelf.env).toEqual({ PATH: ENV.PATH, HOME: '/home/someone', SHELF_TOKEN: 'shelf-secret-1', REGION: 'eu-north' });
    expect(resolveServer(servers, 'remote', ENV)).toEqual({ id: 'remote', kind: 'http', url: 'https://mcp.example.test/mcp?api_key=remote-secret-2', headers: { Authorization: 'Bearer remote-secret-2' } });
  });

  it("reads VS Code's servers object with ${env:VAR}", () => {
    const servers = loadMcpServers(file({ servers: { fs: { type: 'stdio', command: 'node', args: ['x.js'], env: { ROOT: '${env:HOME}' } } }, inputs: [] }));
    expect(resolveServer(servers, 'fs', ENV)).toMatchObject({ kind: 'stdio', command: ['node', 'x.js'], env: { ROOT: '/home/someone' } });
  });

  it('refuses a missing variable naming it and where it is needed, and a bad entry naming the field', () => {
    const servers = loadMcpServers(file(CLAUDE));
    expect(() => resolveServer(servers, 'remote', { PATH: '/bin' })).toThrow(/tool server 'remote' needs the environment variable REMOTE_KEY for its url/);
    expect(() => loadMcpServers(file({ mcpServers: { bad: { command: 'x', url: 'http://y' } } }))).toThrow(ConfigError);
    expect(() => loadMcpServers(file({ mcpServers: { old: { type: 'sse', url: 'http://y/sse' } } }))).toThrow(/mcpServers\.old\.type: type must be stdio or http/);
  });

  it('never shows a secret as part of a target: variables unfilled, URL without query values, names only', () => {
    const summaries = loadMcpServers(file(CLAUDE)).map(summarise);
    const shown = JSON.stringify(summaries);
    for (const secret of ['shelf-secret-1', 'remote-secret-2']) expect(shown).not.toContain(secret);
    expect(summaries[0]).toMatchObject({ kind: 'stdio', envNames: ['SHELF_TOKEN', 'REGION'] });
    expect(summaries[0]!.target).toContain('--token ${SHELF_TOKEN}');
    expect(summaries[1]).toMatchObject({ kind: 'http', target: 'https://mcp.example.test/mcp?api_key=…', headerNames: ['Authorization'] });
  });

  it.skipIf(!hasOwn)('starts a stdio server with exactly its declared environment plus PATH and HOME (a real child process)', async () => {
    const resolved = resolveServer(loadMcpServers(file(CLAUDE)), 'shelf', { ...process.env, SHELF_TOKEN: 'shelf-secret-1' });
    if (resolved.kind !== 'stdio') throw new Error('expected stdio');
    const executor = (await createExecutor({
      transport: 'mcp-stdio',
      dataset: loadDataset(OWN_DATASET_DIR),
      weaknesses: [],
      mcpCommand: resolved.command,
      mcpCwd: REPO_ROOT,
      mcpEnv: resolved.env,
      mcpServerId: 'shelf',
    })) as McpToolExecutor;
    try {
      const { content } = await executor.call('env', {});
      expect(content).toEqual({ names: ['HOME', 'PATH', 'REGION', 'SHELF_TOKEN'], shelfToken: 'shelf-secret-1' });
    } finally {
      await executor.close();
    }
  }, 30_000);
});

describe('the bundled configuration', () => {
  const bundled = loadMcpServers(path.join(REPO_ROOT, 'config/mcp-servers.json'));

  it("sends the dashboard's token to the dashboard's own address, whatever port it serves on (observed: always 127.0.0.1:3000)", () => {
    expect(resolveServer(bundled, 'dashboard', { PORT: '4123', STOCKROOM_MCP_TOKEN: 't' })).toMatchObject({ url: 'http://127.0.0.1:4123/api/mcp' });
    expect(resolveServer(bundled, 'dashboard', { BETTER_AUTH_URL: 'https://stockroom.example.test/', STOCKROOM_MCP_TOKEN: 't' })).toMatchObject({
      url: 'https://stockroom.example.test/api/mcp',
    });
    expect(JSON.stringify(bundled)).not.toContain('127.0.0.1:3000');
  });
});
