/**
 * `stockroom gate --report FILE`: checks a report against the thresholds (and a baseline) and exits
 * 1 when any check fails, naming the metric and by how much it missed.
 */
import { writeFileSync } from 'node:fs';
import { baselineFromReport, baselineMismatches, readBaseline, writeBaseline } from '../../lib/eval/baseline';
import { evaluateGate, GATE_RULE_TEXT, GATE_RULES, loadThresholds, type GateRule } from '../../lib/eval/gate';
import { formatGateMarkdown } from '../../lib/eval/gate-markdown';
import { guardrailFigureLines } from '../../lib/eval/guardrail-figures';
import { readReport } from '../../lib/eval/report';
import { CliUsageError, parseArgs, stringFlag } from '../args';
import type { CliCommand } from '../command';
import { checkOutFile } from '../out-file';

const FLAGS = {
  report: { type: 'string', description: 'report JSON written by `stockroom eval --out`' },
  thresholds: { type: 'string', description: 'thresholds JSON (default: config/gate-thresholds.json)' },
  baseline: { type: 'string', description: 'baseline (or report) JSON for the max_drop checks' },
  'write-baseline': { type: 'string', description: "write this report's metrics as a baseline file" },
  markdown: { type: 'string', description: 'also write the result as markdown to this file' },
  rule: { type: 'string', description: "point (default): compare values; interval: fail only when a metric's 95% interval is entirely on the wrong side", values: GATE_RULES },
} as const;

export const command: CliCommand = {
  name: 'gate',
  summary: 'check a report against the metric thresholds; exit 1 when a check fails',
  usage: 'gate --report FILE [--rule point|interval] [--thresholds FILE] [--baseline FILE] [--write-baseline FILE] [--markdown FILE]',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    if (args.positionals.length > 0) throw new CliUsageError(`unexpected argument '${args.positionals[0]}'`);
    const reportPath = stringFlag(args, 'report');
    if (!reportPath) throw new CliUsageError('--report is required');
    for (const flag of ['markdown', 'write-baseline']) {
      const file = stringFlag(args, flag);
      if (file !== undefined) checkOutFile(flag, file);
    }
    const thresholdsPath = stringFlag(args, 'thresholds');
    const baselinePath = stringFlag(args, 'baseline');
    // Read every input before writing anything, so a bad file leaves no partial output.
    const report = readReport(reportPath);
    const thresholds = thresholdsPath ? loadThresholds(thresholdsPath) : loadThresholds();
    const baseline = baselinePath ? readBaseline(baselinePath) : null;

    for (const mismatch of baseline ? baselineMismatches(baseline.source, report) : []) {
      process.stderr.write(`warning: the baseline was measured on different inputs: ${mismatch}\n`);
    }
    const rule = (stringFlag(args, 'rule') ?? 'point') as GateRule;
    if (rule === 'interval' && !report.intervals) throw new CliUsageError(`--rule interval needs a report with intervals; ${reportPath} predates them (re-run eval)`);
    const result = evaluateGate({ metrics: report.metrics, thresholds, baseline: baseline?.metrics ?? null, rule, intervals: report.intervals?.metrics ?? null });
    if (rule === 'interval') process.stdout.write(`rule ${GATE_RULE_TEXT.interval}${report.intervals?.deterministic ? ' (deterministic model: zero-width intervals, the same as point)' : ''}\n`);
    for (const check of result.checks) {
      process.stdout.write(`${check.passed ? 'pass' : 'FAIL'}  ${check.message}\n`);
    }
    if (!result.baselineUsed) process.stdout.write('(no --baseline: drop checks not run)\n');
    for (const line of guardrailFigureLines(report.metrics)) process.stdout.write(line + '\n');

    const markdown = stringFlag(args, 'markdown');
    if (markdown) writeFileSync(markdown, formatGateMarkdown(result, report.metrics));
    const writeTo = stringFlag(args, 'write-baseline');
    if (writeTo) {
      writeBaseline(writeTo, baselineFromReport(report));
      process.stdout.write(`baseline written to ${writeTo}\n`);
    }

    const failures = result.checks.filter((c) => !c.passed);
    if (failures.length > 0) {
      process.stderr.write(`gate FAILED (${failures.length} of ${result.checks.length} checks):\n`);
      for (const f of failures) process.stderr.write(`  ${f.message}\n`);
      return 1;
    }
    process.stdout.write(`gate passed (${result.checks.length} checks)\n`);
    return 0;
  },
};
