/**
 * Flags shared by the commands that run the harness, and how they become a validated
 * configuration and a dataset. Environment variables are read first; flags override them.
 */
import fs from 'node:fs';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { configFromEnv, parseOverrides, resolveConfig, TRANSPORTS, type HarnessConfig } from '../lib/harness/config';
import { ConfigError } from '../lib/harness/errors';
import { parseGuardrailsJson } from '../lib/harness/guardrails/config';
import { defaultDatasetDir, loadDataset } from '../lib/stockroom/dataset/load-dataset';
import type { Dataset } from '../lib/stockroom/dataset/types';
import { CliUsageError, stringFlag, stringsFlag, type FlagSpec, type ParsedArgs } from './args';
import { loadMcpServers, resolveServer } from '../lib/mcp/client/server-config';
import { resolveExecutor, resolveLiveModel } from '../lib/runs/agent';
import { guardrailsFor } from '../lib/runs/settings';
import { MAX_EPOCHS } from '../lib/eval/suite';

export const HARNESS_FLAGS: FlagSpec = {
  dataset: { type: 'string', description: 'dataset directory (default: data/, or STOCKROOM_DATASET)' },
  weaknesses: { type: 'string', description: 'comma-separated weakness flags' },
  guards: { type: 'string', description: 'comma-separated run guards (grounded_write)' },
  'payload-wrappers': { type: 'string', description: 'comma-separated payload wrappers (cap_payload)' },
  transport: { type: 'string', description: 'tool transport', values: TRANSPORTS },
  'mcp-url': { type: 'string', description: 'any streamable-HTTP MCP server URL (implies --transport mcp-http)' },
  'mcp-header': { type: 'string', multiple: true, description: 'header sent to --mcp-url, "Name: value"' },
  'mcp-command': { type: 'string', description: 'any stdio MCP server, "CMD ARGS" (implies --transport mcp-stdio)' },
  'mcp-server': { type: 'string', description: 'a tool server by id from config/mcp-servers.json (or STOCKROOM_MCP_SERVERS)' },
  'max-steps': { type: 'string', description: 'max model calls per run' },
  'token-budget': { type: 'string', description: 'per-run token budget' },
  'max-tokens': { type: 'string', description: 'per-call output cap' },
  'usd-budget': { type: 'string', description: 'per-run spending ceiling in USD (needs a priced model, config/prices.json)' },
  model: { type: 'string', description: 'fake (default), bedrock:ID, openai:MODEL, openai-compatible:MODEL or anthropic:MODEL' },
  'model-base-url': { type: 'string', description: 'endpoint for openai-compatible (required) or to override a provider' },
  'wall-clock-timeout-s': { type: 'string', description: 'a run\'s wall-clock limit in seconds (WALL_CLOCK_TIMEOUT_S); whatever is in flight then is cancelled' },
  'model-timeout-s': { type: 'string', description: 'a live model call\'s per-attempt timeout in seconds (MODEL_CALL_TIMEOUT_S, 0.1–600)' },
  'model-retries': { type: 'string', description: 'retries of a failed live model call (MODEL_CALL_RETRIES, 0–10)' },
  stream: { type: 'boolean', description: 'stream live model answers (STOCKROOM_STREAM=1); the record is the same, with time to first token' },
  guardrails: { type: 'string', description: 'agent guardrails as JSON or a JSON file (see docs/reference/guardrails.md)' },
  temperature: { type: 'string', description: 'how much --model fake-noisy strays from the fake model (STOCKROOM_TEMPERATURE, 0–2; default 0.7)' },
  seed: { type: 'string', description: "--model fake-noisy's seed: the same seed, the same runs (STOCKROOM_SEED; default 0)" },
};

/** `--epochs N` of eval and matrix: runs per case, each from a fresh reset. */
export const EPOCHS_FLAGS: FlagSpec = {
  epochs: { type: 'string', description: 'runs per case, each from a fresh reset (1–100; default 1); metrics get intervals over cases' },
};

/** The epochs the flags ask for (1 without --epochs); a bad value is a usage error naming --epochs. */
export function epochsFromArgs(args: ParsedArgs): number {
  const raw = stringFlag(args, 'epochs');
  if (raw === undefined) return 1;
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_EPOCHS) throw new CliUsageError(`--epochs must be an integer between 1 and ${MAX_EPOCHS}; got '${raw}'`);
  return n;
}

/**
 * Stored run ids by case, in the order the runs were stored: a case's id alone when it ran once (the
 * shape before epochs), its ids by epoch when it ran more than once.
 */
export function runIdsByCase(caseIds: readonly string[], ids: readonly string[]): Record<string, string | string[]> {
  const out: Record<string, string[]> = {};
  caseIds.forEach((c, i) => (out[c] ??= []).push(ids[i]!));
  return Object.fromEntries(Object.entries(out).map(([c, list]) => [c, list.length === 1 ? list[0]! : list]));
}

/**
 * `--guardrails JSON_OR_FILE`: inline JSON (starts with `{`) or the path of a JSON file, validated
 * with the harness's schema; an error names the flag and the field (`guardrails.on_violation`).
 */
export function guardrailsFromArgs(args: ParsedArgs): string | undefined {
  const raw = stringFlag(args, 'guardrails');
  if (raw === undefined) return undefined;
  const text = raw.trim().startsWith('{') ? raw : readGuardrailsFile(raw);
  try {
    parseGuardrailsJson(text);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliUsageError(`--guardrails: ${err.message}`);
    throw err;
  }
  return text;
}

function readGuardrailsFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliUsageError(`--guardrails: '${file}' is neither inline JSON nor a readable file (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
}

export function configFromArgs(args: ParsedArgs): HarnessConfig {
  // No --guardrails with --tenant T: T's default from the policy file (as for the dashboard's runs).
  const tenant = stringFlag(args, 'tenant');
  const tenantDefault = stringFlag(args, 'guardrails') === undefined && tenant !== undefined ? guardrailsFor(undefined, tenant) : undefined;
  return resolveConfig(
    configFromEnv(),
    parseOverrides({
      weaknesses: stringFlag(args, 'weaknesses'),
      guards: stringFlag(args, 'guards'),
      payloadWrappers: stringFlag(args, 'payload-wrappers'),
      transport: stringFlag(args, 'transport') ?? impliedTransport(args),
      maxSteps: stringFlag(args, 'max-steps'),
      tokenBudget: stringFlag(args, 'token-budget'),
      maxTokens: stringFlag(args, 'max-tokens'),
      model: stringFlag(args, 'model'),
      modelBaseUrl: stringFlag(args, 'model-base-url'),
      usdBudget: stringFlag(args, 'usd-budget'),
      wallClockTimeoutS: stringFlag(args, 'wall-clock-timeout-s'),
      modelTimeoutS: stringFlag(args, 'model-timeout-s'),
      modelRetries: stringFlag(args, 'model-retries'),
      // --stream turns streaming on; without it STOCKROOM_STREAM (or off) decides.
      stream: args.flags.stream === true ? 'true' : undefined,
      guardrails: guardrailsFromArgs(args),
      temperature: stringFlag(args, 'temperature'),
      seed: stringFlag(args, 'seed'),
    }),
    tenantDefault && !process.env.STOCKROOM_GUARDRAILS ? { guardrails: tenantDefault } : {},
  );
}

/** The transport a tool-server flag implies when --transport is not given. */
function impliedTransport(args: ParsedArgs): string | undefined {
  const id = stringFlag(args, 'mcp-server');
  if (id !== undefined) return loadMcpServers().find((s) => s.id === id)?.url !== undefined ? 'mcp-http' : 'mcp-stdio';
  if (stringFlag(args, 'mcp-command') !== undefined) return 'mcp-stdio';
  if (stringFlag(args, 'mcp-url') !== undefined) return 'mcp-http';
  return undefined;
}

/** The external tool server the flags name (`--mcp-server ID`, `--mcp-command`, or `--mcp-url` + headers), if any. */
export async function toolServerFromArgs(
  args: ParsedArgs,
): Promise<{ mcpUrl?: string; mcpHeaders?: Record<string, string>; mcpAuth?: OAuthClientProvider; mcpCommand?: string | string[]; mcpCwd?: string; mcpEnv?: Record<string, string>; mcpServerId?: string }> {
  const { parseHeaders } = await import('../lib/mcp/client/command-line');
  const id = stringFlag(args, 'mcp-server');
  const url = stringFlag(args, 'mcp-url');
  const command = stringFlag(args, 'mcp-command');
  const headers = stringsFlag(args, 'mcp-header');
  const given = [id !== undefined && '--mcp-server', url !== undefined && '--mcp-url', command !== undefined && '--mcp-command'].filter(Boolean);
  if (given.length > 1) throw new CliUsageError(`give one tool server: ${given.join(' or ')}`);
  if (headers.length > 0 && url === undefined) throw new CliUsageError('--mcp-header needs --mcp-url');
  if (id !== undefined) {
    const server = resolveServer(loadMcpServers(), id);
    if (server.kind === 'stdio') return { mcpCommand: server.command, mcpCwd: server.cwd, mcpEnv: server.env, mcpServerId: id };
    // Client credentials need no person; a server authorized by an operator is for dashboard runs (its token is the tenant's).
    const { clientCredentialsProvider } = await import('../lib/mcp/client/oauth/provider-for');
    const machine = clientCredentialsProvider(server);
    return { mcpUrl: server.url, mcpHeaders: server.headers, mcpServerId: id, ...(machine ? { mcpAuth: machine } : {}) };
  }
  return {
    ...(url !== undefined ? { mcpUrl: url, mcpHeaders: parseHeaders(headers) } : {}),
    ...(command !== undefined ? { mcpCommand: command } : {}),
  };
}

export function datasetFromArgs(args: ParsedArgs): Dataset {
  return loadDataset(stringFlag(args, 'dataset') ?? defaultDatasetDir());
}

/** The tool executor the flags ask for (undefined: the agent's own in-process one), through the run service. */
export async function createExecutorFromArgs(args: ParsedArgs, config: HarnessConfig, dataset: Dataset) {
  return resolveExecutor(config, dataset, await toolServerFromArgs(args));
}

/**
 * The live model the configuration names, its credentials checked (null for the fake model).
 * Refuses before anything runs, naming a missing variable (the run service's resolveLiveModel).
 */
export const liveModelFromConfig = (config: HarnessConfig) => resolveLiveModel(config);

/**
 * Ctrl-C cancels the work in flight: the model call is aborted and the command ends cleanly
 * (exit 130) instead of dying mid-write. A second Ctrl-C exits at once.
 */
export function cancelOnSigint(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('\ncancelling… (Ctrl-C again to quit at once)\n');
    controller.abort(new DOMException('cancelled by Ctrl-C', 'AbortError'));
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSigint) };
}
