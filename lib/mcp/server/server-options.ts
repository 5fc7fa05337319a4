/**
 * The `mcp-server` flags (`[--transport stdio|http] [--dataset DIR] [--weaknesses a,b] [--port N]
 * [--host H] [--allowed-hosts a,b] [--policy FILE] [--session-weaknesses] [--session-idle-minutes N]
 * [--approvals] [--actor NAME] [--conformance-tools]`),
 * parsed and validated with zod before anything starts.
 */
import { z } from 'zod';
import { parseWeaknesses, type WeaknessFlag } from '../../harness';
import { ConfigError } from '../../harness';

export const SERVER_TRANSPORTS = ['stdio', 'http'] as const;
/** Port of `mcp-server --transport http` when none is given. */
export const DEFAULT_HTTP_PORT = 8765;
/** Loopback by default: the server has no authentication. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';

/** Minutes an HTTP session may sit unused before it is reaped, when not given. */
export const DEFAULT_SESSION_IDLE_MINUTES = 5;

const FLAG_NAMES = ['transport', 'dataset', 'weaknesses', 'port', 'host', 'allowed-hosts', 'policy', 'session-weaknesses', 'session-idle-minutes', 'approvals', 'actor', 'conformance-tools'] as const;
/** Flags that take no value. */
const BOOLEAN_FLAGS: readonly string[] = ['session-weaknesses', 'approvals', 'conformance-tools'];

/** Who a stand-alone server's MCP caller acts as in approvals, when --actor is not given. */
export const DEFAULT_MCP_ACTOR = 'mcp-agent';

const ServerFlagsSchema = z.strictObject({
  // stdio when omitted, as MCP servers conventionally are (and the Inspector CLI keeps --transport for itself).
  transport: z.enum(SERVER_TRANSPORTS, { error: `--transport must be one of ${SERVER_TRANSPORTS.join(', ')}` }).default('stdio'),
  dataset: z.string().min(1, '--dataset needs a directory').optional(),
  weaknesses: z.string().optional(),
  port: z
    .string()
    .regex(/^\d+$/, '--port must be an integer from 0 to 65535')
    .transform(Number)
    .refine((n) => n <= 65_535, '--port must be an integer from 0 to 65535')
    .optional(),
  host: z.string().min(1, '--host needs an address').optional(),
  'allowed-hosts': z.string().optional(),
  policy: z.string().min(1, '--policy needs a policy file').optional(),
  'session-weaknesses': z.literal('true').optional(),
  approvals: z.literal('true').optional(),
  'conformance-tools': z.literal('true').optional(),
  actor: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/, '--actor is letters, digits, . _ @ - (at most 64)').optional(),
  'session-idle-minutes': z
    .string()
    .regex(/^\d+(\.\d+)?$/, '--session-idle-minutes must be a positive number of minutes')
    .transform(Number)
    .refine((n) => n > 0 && n <= 24 * 60, '--session-idle-minutes must be a positive number of minutes, at most 1440')
    .optional(),
});

export interface ServerFlags {
  transport: (typeof SERVER_TRANSPORTS)[number];
  /** Undefined: the default dataset directory. */
  datasetDir: string | undefined;
  weaknesses: WeaknessFlag[];
  port: number;
  host: string;
  /** Undefined: loopback names plus the bind address. */
  allowedHostnames: string[] | undefined;
  /** The governance policy file writes go through; undefined: every write is refused. */
  policyFile: string | undefined;
  /** Whether a client may pick its session's weakness flags (HTTP `?weaknesses=`, stdio: initialize). */
  sessionWeaknesses: boolean;
  sessionIdleMs: number;
  /**
   * Keep the journal and evidence in the dashboard's database and queue writes that need approval
   * there for its reviewers (needs --policy).
   */
  approvals: boolean;
  /** Who the MCP caller acts as in approvals and the journal. */
  actor: string;
  /** Serve the MCP conformance suite's test tools beside the Stockroom tools (testing only). */
  conformanceTools: boolean;
}

/** Splits `--flag value` and `--flag=value` pairs; boolean flags stand alone. */
function collectFlags(argv: readonly string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) throw new ConfigError('argv', `unexpected argument '${arg}'`);
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (!(FLAG_NAMES as readonly string[]).includes(name)) {
      throw new ConfigError(name, `unknown flag --${name}; expected one of ${FLAG_NAMES.map((f) => `--${f}`).join(', ')}`);
    }
    if (BOOLEAN_FLAGS.includes(name)) {
      if (eq !== -1) throw new ConfigError(name, `--${name} takes no value`);
      flags[name] = 'true';
      continue;
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new ConfigError(name, `--${name} needs a value`);
    flags[name] = value;
  }
  return flags;
}

/** Parses and validates the flags; throws ConfigError naming the bad flag. */
export function parseServerFlags(argv: readonly string[]): ServerFlags {
  const parsed = ServerFlagsSchema.safeParse(collectFlags(argv));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const flag = String(issue.path[0] ?? 'argv');
    const message = issue.code === 'invalid_value' || issue.message.includes('--') ? issue.message : `--${flag}: ${issue.message}`;
    throw new ConfigError(flag, message);
  }
  const f = parsed.data;
  if (f.approvals === 'true' && f.policy === undefined) throw new ConfigError('approvals', '--approvals needs --policy FILE (approvals come from the policy rules)');
  return {
    transport: f.transport,
    datasetDir: f.dataset,
    weaknesses: f.weaknesses ? parseWeaknesses(f.weaknesses) : [],
    port: f.port ?? DEFAULT_HTTP_PORT,
    host: f.host ?? DEFAULT_HTTP_HOST,
    allowedHostnames: f['allowed-hosts']
      ? f['allowed-hosts']
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean)
      : undefined,
    policyFile: f.policy,
    sessionWeaknesses: f['session-weaknesses'] === 'true',
    sessionIdleMs: (f['session-idle-minutes'] ?? DEFAULT_SESSION_IDLE_MINUTES) * 60_000,
    approvals: f.approvals === 'true',
    actor: f.actor ?? DEFAULT_MCP_ACTOR,
    conformanceTools: f['conformance-tools'] === 'true',
  };
}
