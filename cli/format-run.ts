/** A RunResult as readable terminal text: trajectory, transitions, guard events, usage, answer. */
import { pyJson } from '../lib/harness/pyjson';
import type { RunResult } from '../lib/harness/types';

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n) + `… (${s.length} chars)` : s);

export function formatRun(run: RunResult): string {
  const lines: string[] = [];
  lines.push(`run ${run.runId}${run.caseId ? ` (case ${run.caseId})` : ''}`);
  lines.push(`query: ${run.query}`);
  lines.push(`weaknesses: ${run.weaknesses.join(', ') || 'none'}`);
  lines.push('', 'trajectory:');
  for (const s of run.trajectory) {
    switch (s.kind) {
      case 'model_turn':
        lines.push(
          `  [${s.step}] model  in=${s.inputTokens} out=${s.outputTokens} ctx≈${s.contextTokensEstimate} stop=${s.stopReason}` +
            (s.toolCalls.length ? ` calls=${s.toolCalls.map((c) => c.name).join(',')}` : ''),
        );
        break;
      case 'tool_call': {
        const status = s.validationError
          ? `invalid: ${s.validationError}`
          : s.blockedBy
            ? `blocked by ${s.blockedBy}`
            : s.isError
              ? `error:${s.errorCode}`
              : 'ok';
        lines.push(`  [${s.step}] tool   ${s.name} ${pyJson(s.arguments)} → ${status}`);
        if (s.quarantinedLines > 0) lines.push(`         quarantined ${s.quarantinedLines} line(s) of instruction-like text`);
        lines.push(`         ${clip(pyJson(s.resultContent, { ensureAscii: false }), 240)}`);
        break;
      }
      case 'compaction':
        lines.push(`  [${s.step}] compaction ${s.tokensBefore} → ${s.tokensAfter} tokens (${s.resultsSummarised} result(s) summarised)`);
        break;
      case 'guard':
        lines.push(`  [${s.step}] guard  ${s.guard} → ${s.reason}: ${s.detail}`);
        break;
      case 'tool_session':
        lines.push(`  [${s.step}] session new session with ${s.server} for ${s.name} (${s.reason}): ${s.detail}`);
        break;
      case 'guardrail':
        lines.push(`  [${s.step}] guardrail ${s.guardrail} ${s.action}: ${s.detail}`);
        if (s.message) lines.push(`         told the agent: ${s.message}`);
        for (const f of s.findings ?? []) lines.push(`         ${f.kind} at ${f.start}–${f.end}: …${f.before}[${f.match}]${f.after}…`);
        break;
    }
  }
  lines.push('', 'transitions:');
  for (const t of run.transitions) lines.push(`  [${t.step}] ${t.from} → ${t.to} (${t.reason})`);
  lines.push('', `termination: ${run.terminationReason}`);
  lines.push(
    `usage: ${run.usage.modelCalls} model call(s), ${run.usage.inputTokens} input + ${run.usage.outputTokens} output tokens ` +
      `(per call in: ${run.usage.perCall.map((c) => c.inputTokens).join(', ') || '-'}); ${run.usage.cachedTokens ? `${run.usage.cachedTokens} cached; ` : ''}cost ${run.costEstimate.known === false || run.costEstimate.usd === null ? 'unknown' : `$${run.costEstimate.usd.toFixed(6)}`} (${run.costEstimate.note})`,
  );
  lines.push('', 'answer:', run.finalAnswer);
  return lines.join('\n');
}
