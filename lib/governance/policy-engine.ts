/**
 * Evaluates the policy for one proposed call: unknown tools are denied, a principal without the
 * tool's scope is denied, then the tool's rules run in order and the first match decides; with no
 * match the call is allowed. Every decision names the rule that made it and the policy version.
 */
import type { JsonValue } from '../harness';
import { isJsonObject } from '../harness';
import type { PolicyCondition, PolicyRule, LoadedPolicy, ToolPolicy } from './policy-file';
import type { Principal } from './principal';

/** Rule ids the engine itself uses (the policy file's own rules use their `id`). */
export const BUILTIN_RULES = {
  unknownTool: 'unknown-tool',
  missingScope: 'missing-scope',
  schemaDrift: 'schema-drift',
  unpinnedTool: 'unpinned-tool',
  defaultAllow: 'default-allow',
  /** An unlisted tool of a server whose policy lets its annotations suggest the default. */
  annotationDefault: 'annotation-default',
} as const;

/** What a server says about a tool in its MCP annotations (hints: the policy file decides). */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
}

export interface ApprovalTerms {
  approverRole: 'reviewer' | 'admin';
  quorum: number;
  ttlSeconds: number;
}

export type GovernanceDecision =
  | { decision: 'allow'; rule: string; policyVersion: string }
  | { decision: 'deny'; rule: string; policyVersion: string; message: string }
  | { decision: 'approval_required'; rule: string; policyVersion: string; message: string; approval: ApprovalTerms };

export interface EvaluationInput {
  tool: string;
  arguments: JsonValue;
  principal: Principal;
  /** The tenant whose data the run acts on. */
  runTenant: string;
  /** The tool server the tool comes from (undefined: not known, only bare-name entries apply). */
  server?: string;
  /** The server's annotations for the tool, as pinned. */
  hints?: ToolHints;
}

/** The policy entry for a tool of a server: `<server>/<tool>` first, then the bare name. */
export function toolPolicyFor(policy: LoadedPolicy, tool: string, server?: string): ToolPolicy | undefined {
  const tools = policy.document.tools;
  return (server !== undefined ? tools[`${server}/${tool}`] : undefined) ?? tools[tool];
}

/** Whether a tool that the policy does not list gets its default from the server's annotations. */
function annotationDefaulted(policy: LoadedPolicy, server: string | undefined): boolean {
  return server !== undefined && policy.document.servers[server]?.unlistedTools === 'annotations';
}

function matches(when: PolicyCondition | undefined, input: EvaluationInput): boolean {
  if (when === undefined) return true;
  if ('crossTenant' in when) return input.runTenant !== input.principal.tenant;
  const value = isJsonObject(input.arguments) ? input.arguments[when.argument] : undefined;
  if (value === undefined) return false;
  if (when.eq !== undefined && value !== when.eq) return false;
  const numeric = ['gt', 'gte', 'lt', 'lte'].some((k) => k in when);
  if (numeric && typeof value !== 'number') return false;
  const n = value as number;
  if (when.gt !== undefined && !(n > when.gt)) return false;
  if (when.gte !== undefined && !(n >= when.gte)) return false;
  if (when.lt !== undefined && !(n < when.lt)) return false;
  if (when.lte !== undefined && !(n <= when.lte)) return false;
  return true;
}

function fromRule(rule: PolicyRule, policy: LoadedPolicy): GovernanceDecision {
  const policyVersion = policy.version;
  switch (rule.effect) {
    case 'allow':
      return { decision: 'allow', rule: rule.id, policyVersion };
    case 'deny':
      return { decision: 'deny', rule: rule.id, policyVersion, message: rule.message };
    case 'approval_required':
      return {
        decision: 'approval_required',
        rule: rule.id,
        policyVersion,
        message: rule.message,
        approval: { approverRole: rule.approverRole, quorum: rule.quorum, ttlSeconds: rule.ttlSeconds ?? policy.document.approvalTtlSeconds },
      };
  }
}

/** Decides one call against a loaded policy. Pure; never throws. */
export function evaluatePolicy(policy: LoadedPolicy, input: EvaluationInput): GovernanceDecision {
  const policyVersion = policy.version;
  const tool = toolPolicyFor(policy, input.tool, input.server);
  const where = input.server !== undefined ? ` (server ${input.server})` : '';
  if (!tool) {
    if (!annotationDefaulted(policy, input.server)) {
      return { decision: 'deny', rule: BUILTIN_RULES.unknownTool, policyVersion, message: `tool ${input.tool}${where} is not in the policy` };
    }
    if (input.hints?.readOnlyHint === true) return { decision: 'allow', rule: `${BUILTIN_RULES.annotationDefault}:read`, policyVersion };
    const server = policy.document.servers[input.server as string]!;
    return {
      decision: 'approval_required',
      rule: `${BUILTIN_RULES.annotationDefault}:write`,
      policyVersion,
      message: `${input.tool}${where} is not in the policy and the server does not mark it read-only${input.hints?.destructiveHint === true ? ' (it says it is destructive)' : ''}, so a ${server.approverRole} must approve it`,
      approval: { approverRole: server.approverRole, quorum: 1, ttlSeconds: policy.document.approvalTtlSeconds },
    };
  }
  if (!input.principal.scopes.includes(tool.scope)) {
    return {
      decision: 'deny',
      rule: BUILTIN_RULES.missingScope,
      policyVersion,
      message: `${input.principal.subject} lacks the scope ${tool.scope} that ${input.tool} requires`,
    };
  }
  for (const rule of tool.rules) {
    if (rule.server !== undefined && rule.server !== input.server) continue;
    if (matches(rule.when, input)) return fromRule(rule, policy);
  }
  return { decision: 'allow', rule: `${BUILTIN_RULES.defaultAllow}:${tool.risk}`, policyVersion };
}

/**
 * The risk class of a tool, or null when the policy does not list it. An unlisted tool of a server
 * whose annotations decide is a read only when the server marks it read-only.
 */
export function riskOf(policy: LoadedPolicy, tool: string, server?: string, hints?: ToolHints): 'read' | 'write' | null {
  const listed = toolPolicyFor(policy, tool, server)?.risk;
  if (listed) return listed;
  if (annotationDefaulted(policy, server)) return hints?.readOnlyHint === true ? 'read' : 'write';
  return null;
}
