/**
 * The environment is read at every start of the web server, a worker and the CLI, and a tool-server
 * listing may start the CLI as plain `node --import tsx cli/stockroom.ts mcp-server …`, without the
 * react-server condition under which `server-only` is an empty module. lib/startup/env.ts once reached
 * lib/db's core entry through the provider limits' parser, so such a process died on its first line
 * ("This module cannot be imported from a Client Component module") and every stdio run of the
 * listed Stockroom server failed to connect. Run here in a plain child process: Vitest's own alias
 * for `server-only` would hide it.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('lib/startup/env.ts in plain Node', () => {
  it('loads without the react-server condition', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "const env = await import('./lib/startup/env.ts'); console.log(typeof env.ENV_VARIABLES)"], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(out.trim()).toBe('object');
  });
});
