/**
 * The environment, read once at start-up by the web server (instrumentation-node.ts), the worker
 * (cli/worker.ts) and the CLI (cli/stockroom.ts) before anything else: every variable the process
 * reads is parsed with its zod schema, and a bad value stops the process with one line per variable
 * naming it and what it accepts. The table of variables in docs/reference/configuration.md is generated
 * from this list (`npm run docs:generate`; scripts/docs/docs.test.ts fails when it is out of date).
 *
 * Areas that already parse their variables with a named refusal (the harness configuration, the
 * OpenTelemetry exporter, the database URL, provider limits) are checked through their own parsers,
 * so each variable keeps one definition of what it accepts.
 */
import { z } from 'zod';
import { resolveDatabaseUrl } from '../db/core/database-url';
// Deep on purpose (lib/startup may, ARCHITECTURE.md "Doors"): every start of the CLI loads this, and the
// parsers alone load in a fraction of the time their libraries' doors take (measured: lib/otel's door ~2.5×
// the exporter it replaced on the CLI's path).
import { configFromEnv, ENV_KEYS } from '../harness/config';
import { parseProviderLimits } from '../jobs/provider-limits-env';
import { watchClaimMs } from '../watch/claim-settings';
import { otelSettingsFromEnv } from '../otel/env';
import { badIngestTokenMessage, parseIngestTokenEntries } from '../otel/ingest-token-format';
import { expiryWarningSeconds, privateTargetsAllowed, webhookAttempts, webhookTimeoutMs } from '../notify/limits';
import { smtpFromEnv } from '../notify/smtp-settings';
import { datasetAllowList, parseDatasetTenants } from '../schemas/datasets';
import { parseTrustProxy } from '../../scripts/client-address.mjs';

export const PROCESSES = ['web', 'worker', 'cli'] as const;
export type StartedProcess = (typeof PROCESSES)[number];

type Env = Record<string, string | undefined>;

export interface EnvVariable {
  name: string;
  /** The processes that read it (and refuse a bad value at start-up). */
  readBy: readonly StartedProcess[];
  /** What it accepts, for the refusal and the configuration reference. */
  accepts: string;
  /** What it does. */
  meaning: string;
  /** Parses a set value (unset or blank is always accepted: the default applies). */
  schema: z.ZodType<unknown, string>;
}

const ALL = PROCESSES;
const trimmed = z.string().trim();
const integer = (min: number, max: number) =>
  trimmed.refine((v) => /^-?\d+$/.test(v) && Number(v) >= min && Number(v) <= max, `an integer from ${min} to ${max}`);
const httpUrl = trimmed.refine((v) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}, 'an http(s) URL');
/** Any text: the variable is listed (and documented) but every value is usable, e.g. a credential or a path. */
const anyText = z.string();
/** Comma-separated hostnames. */
const hostnames = trimmed.refine((v) => v.split(',').every((h) => /^[A-Za-z0-9.-]*$/.test(h.trim())), 'comma-separated hostnames');
/** At least `n` characters. */
const atLeast = (n: number) => z.string().refine((v) => v.length >= n, `at least ${n} characters`);
const oneOf = (...values: string[]) => trimmed.refine((v) => values.includes(v), values.map((v) => `'${v}'`).join(' or '));
/** A value checked by the area's own parser, which throws naming the variable. */
const byParser = (parse: (raw: string) => unknown) =>
  z.string().superRefine((raw, ctx) => {
    try {
      parse(raw);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : String(err) });
    }
  });

export const ENV_VARIABLES: readonly EnvVariable[] = [
  { name: 'DATABASE_URL', readBy: ALL, accepts: '`file:<path>` (SQLite) or `postgres://…`; unset: `.data/stockroom.db`', meaning: 'the database; on PostgreSQL jobs run on the workers', schema: byParser(resolveDatabaseUrl) },
  { name: 'STOCKROOM_WORKER_CONCURRENCY', readBy: ['web', 'worker'], accepts: 'an integer from 1 to 256', meaning: 'jobs at once per process (default 4 for a worker, 2 in-process)', schema: integer(1, 256) },
  { name: 'STOCKROOM_WORKER_NICE', readBy: ['worker'], accepts: 'an integer from 0 to 19', meaning: 'CPU priority a worker lowers itself to (default 0)', schema: integer(0, 19) },
  { name: 'STOCKROOM_WORKER_GRACE_MS', readBy: ['worker'], accepts: 'an integer from 0 to 3600000', meaning: 'on SIGTERM/SIGINT, how long running jobs may finish before they are handed back', schema: integer(0, 3_600_000) },
  { name: 'STOCKROOM_WORKER_LEASE_MS', readBy: ['worker'], accepts: 'an integer from 1 to 3600000', meaning: 'how long a silent worker counts as alive (default 6000; it beats every sixth of it)', schema: integer(1, 3_600_000) },
  { name: 'STOCKROOM_WORKER_HEALTH_PORT', readBy: ['worker'], accepts: 'an integer from 1 to 65535', meaning: 'serve `GET /healthz` on this port', schema: integer(1, 65_535) },
  { name: 'STOCKROOM_WORKER_LOG_CASES', readBy: ['worker'], accepts: "'0' or '1'", meaning: 'log each suite case a worker finishes', schema: oneOf('0', '1') },
  { name: 'STOCKROOM_PROVIDER_LIMITS', readBy: ['worker'], accepts: '`provider=concurrent:N,rpm:N,tpm:N;…`', meaning: 'per-provider limits shared by all workers', schema: byParser(parseProviderLimits) },
  { name: 'OTLP_MAX_BODY_BYTES', readBy: ['web'], accepts: 'an integer from 1 to 1073741824', meaning: 'largest OTLP request body the receiver accepts, after decompression', schema: integer(1, 1_073_741_824) },
  { name: 'BETTER_AUTH_URL', readBy: ['web'], accepts: 'an http(s) URL', meaning: "the dashboard's public address (secure cookies when https)", schema: httpUrl },
  { name: 'STOCKROOM_DASHBOARD_URL', readBy: ['web', 'cli'], accepts: 'an http(s) URL', meaning: 'the address OAuth redirects of tool servers come back to', schema: httpUrl },
  { name: 'STOCKROOM_WATCH_CLAIM_MS', readBy: ['web', 'worker'], accepts: 'an integer from 1000 to 3600000', meaning: 'how long a watch drain holds the runs it took, and a backfill step its backfill, before another may take over (default 300000)', schema: byParser((raw) => watchClaimMs({ STOCKROOM_WATCH_CLAIM_MS: raw })) },
  { name: 'STOCKROOM_JUDGE_BASE_URL', readBy: ['web'], accepts: 'an http(s) URL', meaning: "the judge model's endpoint (openai-compatible judges)", schema: httpUrl },
  { name: 'STOCKROOM_MCP_OAUTH_ISSUER', readBy: ['web'], accepts: 'an http(s) URL', meaning: '/api/mcp: the authorization server whose tokens it accepts', schema: httpUrl },
  { name: 'STOCKROOM_MCP_OAUTH_JWKS_URL', readBy: ['web'], accepts: 'an http(s) URL', meaning: "/api/mcp: where the issuer's signing keys are", schema: httpUrl },
  { name: 'PORT', readBy: ['web'], accepts: 'an integer from 0 to 65535 (0: a free port the system picks)', meaning: 'the port the dashboard listens on (default 3000; also the default of STOCKROOM_DASHBOARD_URL)', schema: integer(0, 65_535) },
  { name: 'STOCKROOM_TRUST_PROXY', readBy: ['web'], accepts: "'true' or 'false'", meaning: "the server sits behind one reverse proxy that appends the client's address to `X-Forwarded-For`: sign-in limits count that address (default false: the TCP peer)", schema: byParser(parseTrustProxy) },
  { name: 'BETTER_AUTH_SECRET', readBy: ['web'], accepts: 'at least 32 characters', meaning: 'signs session cookies (unset outside production: a fixed development value)', schema: atLeast(32) },
  { name: 'STOCKROOM_ALLOW_DEV_SECRET', readBy: ['web'], accepts: "'0' or '1'", meaning: '1: production may run with the development cookie secret (tests only)', schema: oneOf('0', '1') },
  { name: 'STOCKROOM_MCP_TOKEN', readBy: ['web'], accepts: 'any text', meaning: '/api/mcp: the bearer token it accepts besides OAuth (unset: OAuth only)', schema: anyText },
  { name: 'STOCKROOM_MCP_ALLOWED_HOSTS', readBy: ['web'], accepts: 'comma-separated hostnames', meaning: '/api/mcp: Host names it answers to besides loopback and BETTER_AUTH_URL', schema: hostnames },
  { name: 'STOCKROOM_MCP_SERVERS', readBy: ALL, accepts: 'a file path', meaning: 'the tool servers file (default `config/mcp-servers.json`)', schema: anyText },
  { name: 'STOCKROOM_MODEL_BASE_URL', readBy: ['web'], accepts: 'an http(s) URL', meaning: 'the endpoint of an openai-compatible model picked in the dashboard', schema: httpUrl },
  { name: 'STOCKROOM_OTLP_TOKENS', readBy: ['web'], accepts: '`tenant:sha256-hex,…`', meaning: "the OTLP receiver's ingest tokens (`stockroom otlp-token` makes one)", schema: byParser((raw) => {
      const parsed = parseIngestTokenEntries(raw);
      if (!parsed.ok) throw new Error(badIngestTokenMessage(parsed.bad));
    }),
  },
  { name: 'STOCKROOM_OTLP_TRACE_QUIET_SECONDS', readBy: ['web'], accepts: 'an integer from 1 to 86400', meaning: 'how long a trace without its root span may be quiet before its run is finished (default 300)', schema: integer(1, 86_400) }, // lib/otel/import/limits.ts's range; its parser loads lib/harness's door, too much for every CLI start
  { name: 'STOCKROOM_WEBHOOK_ATTEMPTS', readBy: ['web', 'worker'], accepts: 'an integer from 1 to 25', meaning: 'attempts per webhook delivery before it is given up (default 5)', schema: byParser((raw) => webhookAttempts({ STOCKROOM_WEBHOOK_ATTEMPTS: raw })) },
  { name: 'STOCKROOM_WEBHOOK_TIMEOUT_MS', readBy: ['web', 'worker'], accepts: 'an integer from 100 to 120000', meaning: 'how long one webhook attempt may take (default 10000)', schema: byParser((raw) => webhookTimeoutMs({ STOCKROOM_WEBHOOK_TIMEOUT_MS: raw })) },
  { name: 'STOCKROOM_APPROVAL_WARN_SECONDS', readBy: ['web', 'worker'], accepts: 'an integer from 0 to 604800', meaning: 'a pending approval with less left is announced as expiring (default 600)', schema: byParser((raw) => expiryWarningSeconds({ STOCKROOM_APPROVAL_WARN_SECONDS: raw })) },
  { name: 'STOCKROOM_WEBHOOK_ALLOW_PRIVATE', readBy: ['web', 'worker'], accepts: "'true' or 'false'", meaning: 'let webhooks reach loopback, private and link-local addresses (default false)', schema: byParser((raw) => privateTargetsAllowed({ STOCKROOM_WEBHOOK_ALLOW_PRIVATE: raw })) },
  { name: 'STOCKROOM_SMTP_HOST', readBy: ['web', 'worker'], accepts: 'a host name or address', meaning: 'the SMTP relay email notifications use when an endpoint names none (trusted as set: loopback allowed)', schema: byParser((raw) => smtpFromEnv({ STOCKROOM_SMTP_HOST: raw })) },
  { name: 'STOCKROOM_SMTP_PORT', readBy: ['web', 'worker'], accepts: 'a port from 1 to 65535', meaning: 'its port (default 587, or 465 when secure)', schema: byParser((raw) => smtpFromEnv({ STOCKROOM_SMTP_PORT: raw })) },
  { name: 'STOCKROOM_SMTP_SECURE', readBy: ['web', 'worker'], accepts: "'true' or 'false'", meaning: 'true: TLS from the first byte; false: STARTTLS when offered (default false)', schema: byParser((raw) => smtpFromEnv({ STOCKROOM_SMTP_SECURE: raw })) },
  { name: 'STOCKROOM_SMTP_FROM', readBy: ['web', 'worker'], accepts: 'an email address', meaning: 'the sender of email notifications when an endpoint names none', schema: byParser((raw) => smtpFromEnv({ STOCKROOM_SMTP_FROM: raw })) },
  { name: 'STOCKROOM_SMTP_USER', readBy: ['web', 'worker'], accepts: 'any text (with STOCKROOM_SMTP_PASSWORD)', meaning: 'the relay login, used only with STOCKROOM_SMTP_HOST (unset: no login)', schema: anyText },
  { name: 'STOCKROOM_SMTP_PASSWORD', readBy: ['web', 'worker'], accepts: 'any text (with STOCKROOM_SMTP_USER)', meaning: 'its password, sent only as SMTP AUTH over TLS (or to a loopback relay)', schema: anyText },
  { name: 'STOCKROOM_DATASET', readBy: ALL, accepts: 'a directory', meaning: 'the bundled dataset (default `data/`)', schema: anyText },
  { name: 'STOCKROOM_DATASET_TENANTS', readBy: ALL, accepts: '`<dataset id>=<tenant>,…`', meaning: 'which tenant each dataset belongs to', schema: byParser(parseDatasetTenants) },
  { name: 'STOCKROOM_EXTRA_DATASETS', readBy: ALL, accepts: 'absolute directories, comma-separated', meaning: 'datasets offered besides the bundled one', schema: byParser((raw) => datasetAllowList('/', raw)) },
  { name: 'STOCKROOM_POLICY_FILE', readBy: ALL, accepts: 'a file path', meaning: 'the governance policy (default `config/policy.json`)', schema: anyText },
  { name: 'STOCKROOM_EVIDENCE_KEY', readBy: ALL, accepts: 'at least 32 characters', meaning: 'the evidence chain key (unset: the key file, made on first use)', schema: atLeast(32) },
  { name: 'STOCKROOM_EVIDENCE_KEY_FILE', readBy: ALL, accepts: 'a file path', meaning: 'where the evidence key is kept', schema: anyText },
  { name: 'STOCKROOM_EVIDENCE_SIGNING_KEY_FILE', readBy: ALL, accepts: 'a file path', meaning: "where the evidence's Ed25519 signing key is kept", schema: anyText },
  { name: 'STOCKROOM_EVIDENCE_WITNESS', readBy: ALL, accepts: 'a file path', meaning: 'an append-only file the evidence heads are also written to', schema: anyText },
  { name: 'STOCKROOM_CALIBRATION_SET', readBy: ['web', 'cli'], accepts: 'a file path', meaning: "the judge's calibration set", schema: anyText },
  { name: 'STOCKROOM_JUDGE', readBy: ['cli'], accepts: "'fake' or `provider:model`", meaning: 'the judge when --judge is not given', schema: anyText },
  { name: 'STOCKROOM_MCP_OAUTH_SCOPES', readBy: ['web'], accepts: 'scopes, separated by spaces or commas', meaning: '/api/mcp: the scopes a token must hold (default `mcp:tools`)', schema: anyText },
  ...[
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'OPENAI_COMPATIBLE_API_KEY',
    'AWS_ACCESS_KEY_ID',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'AWS_PROFILE',
    'AWS_REGION',
    'AWS_DEFAULT_REGION',
    'AWS_CONFIG_FILE',
    'AWS_SHARED_CREDENTIALS_FILE',
  ].map((name) => ({
    name,
    readBy: ALL,
    accepts: 'any text',
    meaning: 'a model provider credential or setting (a live model is refused before any call when its credentials are missing)',
    schema: anyText,
  })),
  { name: 'STOCKROOM_DEBUG', readBy: ALL, accepts: "'0' or '1'", meaning: 'error details in answers and stack traces in the CLI', schema: oneOf('0', '1') },
];

/** The harness configuration's variables (lib/harness/config.ts) and the OTEL_* exporter variables, checked by their own parsers. */
const AREA_CHECKS: readonly { names: string; readBy: readonly StartedProcess[]; check: (env: Env) => unknown }[] = [
  { names: Object.keys(ENV_KEYS).join(', '), readBy: ['cli'], check: configFromEnv },
  { names: 'OTEL_*', readBy: ALL, check: otelSettingsFromEnv },
];

export interface EnvProblem {
  name: string;
  message: string;
}

/** Every variable `process` reads that is set to a value it does not accept (empty: all good). */
export function environmentProblems(env: Env, process: StartedProcess): EnvProblem[] {
  const problems: EnvProblem[] = [];
  for (const v of ENV_VARIABLES) {
    const raw = env[v.name];
    if (!v.readBy.includes(process) || raw === undefined || raw.trim() === '') continue;
    const parsed = v.schema.safeParse(raw);
    if (!parsed.success) {
      const said = parsed.error.issues[0]?.message ?? v.accepts;
      problems.push({ name: v.name, message: said.includes(v.name) ? said : `${v.name} must be ${said}; got '${raw}'` });
    }
  }
  for (const area of AREA_CHECKS) {
    if (!area.readBy.includes(process)) continue;
    try {
      area.check(env);
    } catch (err) {
      const key = (err as { key?: unknown; field?: unknown }).key ?? (err as { field?: unknown }).field;
      problems.push({ name: typeof key === 'string' ? key : area.names, message: err instanceof Error ? err.message : String(err) });
    }
  }
  return problems;
}

/** Thrown at start-up when a variable is set to a value its reader does not accept. */
export class EnvironmentError extends Error {
  readonly code = 'BAD_ENVIRONMENT';
  constructor(readonly problems: readonly EnvProblem[]) {
    super(`the environment has ${problems.length === 1 ? 'a bad value' : `${problems.length} bad values`}:\n${problems.map((p) => `  ${p.message}`).join('\n')}`);
    this.name = 'EnvironmentError';
  }
}

/** Refuses to start `process` when a variable it reads has a bad value. */
export function checkEnvironment(env: Env, process: StartedProcess): void {
  const problems = environmentProblems(env, process);
  if (problems.length > 0) throw new EnvironmentError(problems);
}

/** The table of variables in docs/reference/configuration.md (between its `env-table` markers). */
export function envTableMarkdown(): string {
  const rows = ENV_VARIABLES.map((v) => `| \`${v.name}\` | ${v.readBy.join(', ')} | ${v.accepts} | ${v.meaning} |`);
  const areas = [
    `| ${Object.keys(ENV_KEYS).map((k) => `\`${k}\``).join(', ')} | cli | see "The harness configuration" below | the harness configuration (lib/harness/config.ts) |`,
    '| `OTEL_EXPORTER_OTLP_*`, `OTEL_SERVICE_NAME`, … | web, worker, cli | see [traces](../guides/importing-traces.md) | trace export (lib/otel/env.ts) |',
  ];
  return ['| variable | read by | accepts | what it does |', '|---|---|---|---|', ...rows, ...areas].join('\n');
}
