import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMMANDS, main } from './stockroom';

let out = '';
let err = '';
beforeEach(() => {
  out = '';
  err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('every CLI command answers --help', () => {
  it.each(Object.keys(COMMANDS))('%s --help and -h print its usage and every flag, exit 0', async (name) => {
    const { command } = await COMMANDS[name]!();
    for (const flag of ['--help', '-h']) {
      out = '';
      expect(await main([name, flag])).toBe(0);
      expect(out).toContain(`usage: npm run stockroom -- ${command.usage}`);
      for (const f of Object.keys(command.flags ?? {})) expect(out).toContain(`--${f}`);
    }
    expect(err).toBe('');
  });

  it.each(Object.keys(COMMANDS))('%s --help says nothing twice, and its usage lists every allowed value of a flag it shows with values', async (name) => {
    const { command } = await COMMANDS[name]!();
    expect(await main([name, '--help'])).toBe(0);
    // "(repeatable) (repeatable)", "(one of a, b) (one of a, b)": a note the flag list adds must not be in the description too.
    expect(out).not.toMatch(/(\([^()]+\))\s*\1/);
    for (const [flag, def] of Object.entries(command.flags ?? {})) {
      if (!def.values) continue;
      // `[--transport local]` read as the only value; every usage that spells values out spells them all.
      for (const m of command.usage.matchAll(new RegExp(`--${flag} ([a-z][a-z0-9_|-]*)`, 'g'))) expect(m[1]!.split('|')).toEqual([...def.values]);
    }
  });

  it('run --help is no longer refused as an unknown flag', async () => {
    expect(await main(['run', '--help'])).toBe(0);
    expect(out).toContain('--weaknesses');
  });
});

describe('user create refuses bad input naming the field, and writes nothing', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'stockroom-cli-user-'));
    vi.stubEnv('DATABASE_URL', `file:${path.join(dir, 'users.db')}`);
  });

  const refused = async (argv: string[], field: string, text: string) => {
    err = '';
    expect(await main(argv)).toBe(2);
    expect(err).toContain(`--${field}: ${text}`);
    expect(err).not.toMatch(/\n\s+at /); // no stack trace
  };

  it('refuses not-an-email, an empty tenant, a 10,000-character tenant and a short password before opening the database', async () => {
    const ok = ['--password', 'long-enough-password'];
    await refused(['admin', 'create', '--email', 'not-an-email', ...ok], 'email', 'the email is not an email address');
    await refused(['admin', 'create', '--email', 'a@example.com', ...ok, '--tenant', ''], 'tenant', 'a tenant name is required');
    await refused(['admin', 'create', '--email', 'a@example.com', ...ok, '--tenant', 't'.repeat(10_000)], 'tenant', 'a tenant name has at most 64 characters');
    await refused(['admin', 'create', '--email', 'a@example.com', '--password', 'short'], 'password', 'the password must have at least 12 characters');
    await refused(['user', 'create', '--email', 'a@example.com', ...ok, '--role', 'boss'], 'role', "unknown role 'boss'");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("'user create' makes a non-admin user and needs --role; 'admin create' is its alias", async () => {
    expect(await main(['user', 'create', '--email', 'Op@Example.com', '--password', 'long-enough-password'])).toBe(2);
    expect(err).toContain('--role is required');
    expect(await main(['user', 'create', '--email', 'Op@Example.com', '--password', 'long-enough-password', '--role', 'operator', '--tenant', 'puffin'])).toBe(0);
    expect(out).toMatch(/user: op@example\.com \(.+\) has operator in puffin/);
  });

  it("'user list' shows the users of one tenant with their roles there, and nothing of another tenant", async () => {
    const pw = ['--password', 'long-enough-password'];
    expect(await main(['user', 'create', '--email', 'both@example.com', ...pw, '--role', 'viewer,reviewer', '--tenant', 'kittiwake'])).toBe(0);
    expect(await main(['user', 'create', '--email', 'both@example.com', ...pw, '--role', 'admin', '--tenant', 'puffin'])).toBe(0);
    expect(await main(['user', 'create', '--email', 'puffin-only@example.com', ...pw, '--role', 'operator', '--tenant', 'puffin'])).toBe(0);
    out = '';
    expect(await main(['user', 'list', '--tenant', 'kittiwake'])).toBe(0);
    expect(out).toBe('1 user in tenant kittiwake:\n  both@example.com  viewer, reviewer\n');
    out = '';
    expect(await main(['user', 'list', '--tenant', 'puffin', '--json'])).toBe(0);
    const listed = JSON.parse(out) as { tenant: string; users: { email: string; roles: string[] }[] };
    expect(listed.tenant).toBe('puffin');
    expect(listed.users.map((u) => [u.email, u.roles])).toEqual([
      ['both@example.com', ['admin']],
      ['puffin-only@example.com', ['operator']],
    ]);
    out = '';
    expect(await main(['user', 'list', '--tenant', 'nobody-here'])).toBe(0);
    expect(out).toBe('no users in tenant nobody-here\n');
  });

  it("'user list' refuses a missing or malformed tenant and a flag of 'user create', naming it, before opening the database", async () => {
    await refused(['user', 'list', '--tenant', 'Not A Tenant'], 'tenant', 'a tenant name is lower-case letters, digits, - and _');
    err = '';
    expect(await main(['user', 'list'])).toBe(2);
    expect(err).toContain('--tenant is required');
    err = '';
    expect(await main(['user', 'list', '--tenant', 'kittiwake', '--email', 'a@example.com'])).toBe(2);
    expect(err).toContain('unknown flag --email');
    err = '';
    expect(await main(['user', 'remove'])).toBe(2);
    expect(err).toContain("expected 'user create' or 'user list'");
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a mysql:// DATABASE_URL naming the variable, without a stack trace', async () => {
    vi.stubEnv('DATABASE_URL', 'mysql://root@127.0.0.1/stockroom');
    expect(await main(['admin', 'create', '--email', 'a@example.com', '--password', 'long-enough-password'])).toBe(2);
    // Refused at start-up, before any command runs (lib/startup/env.ts), one line naming the variable.
    expect(err).toBe('stockroom: the environment has a bad value:\n  DATABASE_URL must start with file: or postgresql://\n');
  });
});

describe('eval --out is checked before anything runs', () => {
  it('refuses a missing directory and a directory, naming --out', async () => {
    expect(await main(['eval', '--out', path.join(os.tmpdir(), 'no-such-dir-4e1f', 'report.json')])).toBe(2);
    expect(err).toContain("--out: the directory '");
    expect(err).toContain("does not exist; create it first");
    err = '';
    expect(await main(['eval', '--out', os.tmpdir()])).toBe(2);
    expect(err).toContain(`--out: '${os.tmpdir()}' is a directory`);
  });
});
