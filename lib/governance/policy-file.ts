/**
 * The governance policy file (config/policy.json): each tool's version, risk class, required scope
 * and ordered rules. Its version is the SHA-256 of the file's bytes, so any edit — even whitespace —
 * is a new version and invalidates approvals bound to the old one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { GuardrailsSchema, type Guardrails } from '../harness';
import { safeJsonParse } from '../harness';
import { sha256Hex } from './canonical-json';
import { PolicyFileError } from './errors';
import { RedactionSchema, type RedactionPolicy } from './redaction';

/** Where the repository keeps its policy (relative to the repository root). */
export const DEFAULT_POLICY_FILE = path.join('config', 'policy.json');

const ConditionSchema = z.union([
  z.strictObject({ crossTenant: z.literal(true) }),
  z
    .strictObject({
      argument: z.string().min(1),
      gt: z.number().optional(),
      gte: z.number().optional(),
      lt: z.number().optional(),
      lte: z.number().optional(),
      eq: z.union([z.string(), z.number(), z.boolean()]).optional(),
    })
    .refine((c) => ['gt', 'gte', 'lt', 'lte', 'eq'].some((k) => k in c), { message: 'an argument condition needs gt, gte, lt, lte or eq' }),
]);
export type PolicyCondition = z.infer<typeof ConditionSchema>;

/** A tool server's id as config/mcp-servers.json spells it (`stockroom` is the bundled tools' own). */
export const ServerIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'a server id is lowercase letters, digits and dashes (at most 40)');

/**
 * What every rule has: an id, optionally the tool server it is about (the rule is skipped for a
 * tool of the same name served by any other server), and a condition (none: always matches).
 */
const ruleBase = {
  id: z.string().min(1).describe('the rule\'s name, recorded with each decision it takes'),
  server: ServerIdSchema.optional().describe('the tool server the rule is about (skipped for a tool of the same name on any other server)'),
  when: ConditionSchema.optional().describe('when the rule applies (none: always)'),
};

const RuleSchema = z.discriminatedUnion('effect', [
  z.strictObject({ ...ruleBase, effect: z.literal('allow'), message: z.string().optional().describe('what the decision says') }),
  z.strictObject({ ...ruleBase, effect: z.literal('deny'), message: z.string().min(1).describe('what the decision says') }),
  z.strictObject({
    ...ruleBase,
    effect: z.literal('approval_required'),
    message: z.string().min(1).describe('what the decision says'),
    /** The role a reviewer needs in the run's tenant. */
    approverRole: z.enum(['reviewer', 'admin']).default('reviewer').describe("the role a decider needs in the run's tenant"),
    /** Distinct approvers needed. */
    quorum: z.number().int().min(1).max(10).default(1).describe('distinct reviewers who must approve; one denial ends the request'),
    ttlSeconds: z.number().int().min(1).optional().describe("how long this rule's requests stay open (none: `approvalTtlSeconds`)"),
    /**
     * Still pending this many seconds after it was made: the request is escalated — announced to
     * the webhooks of the `to` role (once), and shown escalated in the queue. Must come before expiry.
     */
    escalate: z
      .strictObject({ afterSeconds: z.number().int().min(1), to: z.enum(['reviewer', 'admin']) })
      .optional()
      .describe('a request still pending `afterSeconds` after it was made is escalated once to the `to` role; must be shorter than `ttlSeconds`'),
  }),
]).refine((r) => r.effect !== 'approval_required' || !r.escalate || r.ttlSeconds === undefined || r.escalate.afterSeconds < r.ttlSeconds, {
  message: 'escalate.afterSeconds must be shorter than ttlSeconds (an escalation after expiry reaches nobody in time)',
  path: ['escalate', 'afterSeconds'],
});
export type PolicyRule = z.infer<typeof RuleSchema>;

const ToolPolicySchema = z.strictObject({
  version: z.string().min(1).describe("the tool's version an approval is bound to"),
  risk: z.enum(['read', 'write']).describe('writes are journaled with an operation key'),
  scope: z.string().min(1).describe('the scope the actor needs'),
  rules: z.array(RuleSchema).default([]).describe('checked in order; the first that applies decides'),
});
export type ToolPolicy = z.infer<typeof ToolPolicySchema>;

/**
 * How a server's tools that the policy does not list are decided. `deny` (the default): refused as
 * unknown. `annotations`: the server's own MCP annotations suggest the default — a tool it marks
 * read-only (readOnlyHint) is allowed, any other needs a reviewer's approval. A tool the policy
 * lists is decided by the policy, whatever its annotations say.
 */
const ServerPolicySchema = z.strictObject({
  unlistedTools: z.enum(['deny', 'annotations']).default('deny').describe("the server's tools the policy does not list: refused, or decided by the server's own annotations (read-only allowed, others need a reviewer)"),
  /** The role that approves an unlisted non-read-only tool under `annotations`. */
  approverRole: z.enum(['reviewer', 'admin']).default('reviewer').describe('who approves an unlisted tool that is not read-only, under `annotations`'),
});
export type ServerPolicy = z.infer<typeof ServerPolicySchema>;

/** A `tools` key: a tool name, or `<server id>/<tool name>` for one server's tool only. */
const ToolKeySchema = z.string().min(1).refine((k) => !k.includes('/') || ServerIdSchema.safeParse(k.slice(0, k.indexOf('/'))).success && k.indexOf('/') < k.length - 1, {
  message: 'a tool key is a tool name or <server id>/<tool name>',
});

/** A retention period in whole days (0: as soon as the data is eligible). */
const RetentionDaysSchema = z.number().int('a retention period is a whole number of days').min(0).max(36_500);

/**
 * What a tenant keeps and for how long (lib/db/traces/retention.ts applies it; docs/reference/evidence-and-retention.md). A class
 * not named is kept; a misspelt class is refused when the policy loads.
 */
const RetentionSchema = z.strictObject({
  /** Finished runs outside suites, by age (their start), per source: made here or imported. */
  runs: z
    .strictObject({
      harness: RetentionDaysSchema.optional().describe('days a finished run made here (outside suites) is kept'),
      imported: RetentionDaysSchema.optional().describe('days a finished imported run (outside suites) is kept'),
    })
    .optional(),
  /** Whole suites (their runs with them), by age (their start). */
  suites: RetentionDaysSchema.optional().describe('days a finished suite is kept, with its runs'),
  /** An imported trace's raw OTLP spans and logs, this long after its last span once its run is built. */
  otlpRows: RetentionDaysSchema.optional().describe("days an imported trace's raw OTLP spans and logs are kept after its last span"),
  /** The judge's call cache, by age. */
  judgeCache: RetentionDaysSchema.optional().describe("days the judge's cached calls are kept"),
});
export type RetentionPolicy = z.infer<typeof RetentionSchema>;

/** Per-tenant settings: whether runs of that tenant must run under the policy. */
const TenantPolicySchema = z.strictObject({
  /** What the tenant's data is kept for, by class; nothing named: everything is kept. */
  retention: RetentionSchema.optional().describe('how long each class of data is kept (a class not named: for good)'),
  /** The data classes kept out of storage (lib/governance/redaction.ts; docs/reference/evidence-and-retention.md). */
  redaction: RedactionSchema.optional().describe('the data classes taken out before anything is stored'),
  /** `mandatory`: runs and suites without the policy are refused for this tenant. */
  governance: z.enum(['mandatory', 'optional']).default('optional').describe('`mandatory`: runs and suites without the policy are refused for this tenant'),
  /** The tenant's default agent guardrails: a run that names none of its own runs under these. */
  guardrails: GuardrailsSchema.optional().describe('the default guardrails of a run that names none'),
});

export const PolicyDocumentSchema = z.strictObject({
  schemaVersion: z.literal(1),
  description: z.string().optional().describe('free text for people'),
  /** How long an approval request stays open when its rule names no TTL. */
  approvalTtlSeconds: z.number().int().min(1).describe('how long an approval request stays open when its rule names no `ttlSeconds`'),
  /** Settings by tenant name; a tenant not listed has optional governance. */
  tenants: z.record(z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'a tenant name is lower-case letters, digits, - and _'), TenantPolicySchema).default({}),
  /** Settings by tool server id (servers not listed: unlisted tools are denied). */
  servers: z.record(ServerIdSchema, ServerPolicySchema).default({}),
  /** By tool name (any server), or `<server>/<tool>` (that server's tool; wins over the bare name). */
  tools: z.record(ToolKeySchema, ToolPolicySchema),
});
export type PolicyDocument = z.infer<typeof PolicyDocumentSchema>;

/** Whether the policy makes governance mandatory for `tenant` (ungoverned runs and suites are refused). */
export function governanceMandatory(document: PolicyDocument, tenant: string): boolean {
  return document.tenants[tenant]?.governance === 'mandatory';
}

/** The tenant's retention schedule from the policy file (none: everything is kept). */
export function tenantRetention(document: PolicyDocument, tenant: string): RetentionPolicy | undefined {
  return document.tenants[tenant]?.retention;
}

/** The tenant's redaction at rest from the policy file (none: content is stored as it came). */
export function tenantRedaction(document: PolicyDocument, tenant: string): RedactionPolicy | undefined {
  return document.tenants[tenant]?.redaction;
}

/** The tenant's default guardrails from the policy file, if it names any. */
export function tenantGuardrails(document: PolicyDocument, tenant: string): Guardrails | undefined {
  return document.tenants[tenant]?.guardrails;
}

/** The message an ungoverned run or suite of a tenant with mandatory governance is refused with. */
export const GOVERNANCE_REQUIRED_MESSAGE =
  'Governance is mandatory in this tenant: ungoverned runs and suites are refused. Start the run with the policy attached (a governed run) instead.';

/** A parsed policy and its version (SHA-256 hex of the exact bytes it was parsed from). */
export interface LoadedPolicy {
  document: PolicyDocument;
  version: string;
  source: string;
}

/** Parses policy text; `source` names it in errors. */
export function parsePolicy(text: string, source = '<policy>'): LoadedPolicy {
  const json = safeJsonParse(text);
  if (!json.ok) throw new PolicyFileError(source, `not valid JSON (${json.error})`);
  const parsed = PolicyDocumentSchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new PolicyFileError(source, `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`);
  }
  return { document: parsed.data, version: sha256Hex(text), source };
}

/** Reads and parses a policy file (default: config/policy.json under `root`). */
export function loadPolicyFile(file: string = path.resolve(DEFAULT_POLICY_FILE)): LoadedPolicy {
  let text: string;
  try {
    // Read at run time from the repository (npm start runs there); nothing to trace into a bundle.
    text = fs.readFileSync(/* turbopackIgnore: true */ file, 'utf8');
  } catch (err) {
    throw new PolicyFileError(file, 'cannot be read', { cause: err });
  }
  return parsePolicy(text, file);
}
