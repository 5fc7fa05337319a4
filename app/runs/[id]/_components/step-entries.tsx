'use client';
/** The trajectory entries of one harness step: model turn, model-call retries, tool calls (arguments, result, outcome), new tool-server sessions, guard and compaction events. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { AnnotatedStep, AnnotatedStepPage } from '@/lib/db/review/step-findings';
import { PlantedNotice, PromptLeakNote } from '@/components/finding-notes';
import { displayJson } from '@/lib/charts/message-view';
import { retryView } from '@/lib/charts/retry-view';
import { formatDuration } from '@/lib/format/browser';
import { fetchJson } from '@/components/fetch-json';
import { JsonTree, parseJsonText, parsePartialJsonText } from '@/components/json-tree';
import { MarkdownText } from '@/components/markdown-text';
import { GuardrailEntry } from './guardrail-entry';
import { ToolMedia } from './tool-media';
import { ToolWord } from './tool-word';

/** The react-query options for one step's entries (shared with the prefetch). */
export function stepsQuery(runId: string, step: number) {
  return {
    queryKey: ['run-steps', runId, step],
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      fetchJson<AnnotatedStepPage>(`/api/runs/${encodeURIComponent(runId)}/steps?fromStep=${step}&toStep=${step}`, signal),
    staleTime: Infinity,
  };
}

function FullResult({ runId, index }: { runId: string; index: number }) {
  const q = useQuery({
    queryKey: ['tool-result', runId, index],
    queryFn: ({ signal }) => fetchJson<{ result: unknown }>(`/api/runs/${encodeURIComponent(runId)}/tool-result?index=${index}`, signal),
    staleTime: Infinity,
  });
  if (q.isPending) return <p className="muted small">Loading the full result…</p>;
  if (q.isError) return <p className="field-error">{q.error.message}</p>;
  return q.data.result !== null && typeof q.data.result === 'object' ? <JsonTree value={q.data.result} label="Full tool result" /> : <pre>{displayJson(q.data.result)}</pre>;
}

/** A JSON string preview's text (a tool that answered in words, e.g. a line per image or resource), or null. */
function stringPreview(text: string): string | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/**
 * A result preview as the collapsible tree the arguments use: whole JSON as it is, a preview cut off
 * mid-way with its whole values (the rest is a click away), a JSON string as its text, anything else
 * as plain text.
 */
function ResultPreview({ text, name, truncated, chars }: { text: string; name: string; truncated: boolean; chars: number }) {
  const parsed = truncated ? parsePartialJsonText(text) : parseJsonText(text);
  return (
    <div data-testid="tool-result">
      {parsed.ok ? (
        <>
          <JsonTree value={parsed.value} label={`Result of ${name}`} />
          {truncated ? (
            <p className="muted small" style={{ margin: 0 }}>
              The first {text.length.toLocaleString('en')} of {chars.toLocaleString('en')} characters; a value cut off there is left out.
            </p>
          ) : null}
        </>
      ) : (
        <pre>{stringPreview(text) ?? text}</pre>
      )}
    </div>
  );
}

function ToolEntry({ runId, item }: { runId: string; item: Extract<AnnotatedStep, { kind: 'tool_call' }> }) {
  const [full, setFull] = useState(false);
  const outcome = item.validationError
    ? { tone: 'bad', text: 'invalid arguments (not executed)' }
    : item.blockedBy
      ? { tone: 'bad', text: `blocked by ${item.blockedBy}` }
      : item.isError
        ? { tone: 'warn', text: `error: ${item.errorCode ?? 'unknown'}` }
        : { tone: 'good', text: 'ok' };
  return (
    <div className="entry tool" data-testid="tool-entry">
      <div className="row">
        <strong className="mono">{item.name}</strong>
        <span className={`badge ${outcome.tone}`}>{outcome.text}</span>
        {item.quarantinedLines > 0 ? <span className="badge warn">{item.quarantinedLines} line(s) quarantined</span> : null}
        {item.planted?.length ? <span className="badge bad">planted instruction</span> : null}
        {item.taint ? (
          <span className="badge bad" data-testid="taint-badge" title="From this result on the run is tainted">
            run tainted here
          </span>
        ) : null}
        {item.rewrittenBy.length ? <span className="badge info">rewritten by {item.rewrittenBy.join(', ')}</span> : null}
        {item.policy ? (
          <span className={`badge ${item.policy.rule === 'schema-drift' ? 'bad' : item.policy.decision === 'allow' ? 'good' : 'warn'}`} data-testid="policy-badge">
            {item.policy.rule === 'schema-drift'
              ? 'refused: tool schema drift'
              : `policy ${item.policy.decision}${item.policy.resolution ? ` → ${item.policy.resolution}` : ''} (${item.policy.rule})`}
          </span>
        ) : null}
        <span className="muted small">
          {item.payloadChars.toLocaleString('en')} chars · {item.latencyMs} ms
        </span>
      </div>
      <h3 className="small">Arguments</h3>
      {item.arguments !== null && typeof item.arguments === 'object' ? (
        <JsonTree value={item.arguments} label={`Arguments of ${item.name}`} expandLevels="all" />
      ) : (
        <pre>{displayJson(item.arguments)}</pre>
      )}
      {item.validationError ? (
        <>
          <h3 className="small">Validation error</h3>
          <pre className="field-error">{item.validationError}</pre>
        </>
      ) : null}
      <h3 className="small">Result{item.result.truncated && !full ? ' (preview)' : ''}</h3>
      <PlantedNotice paragraphs={item.planted ?? []} quarantined={item.quarantinedText.length > 0} />
      {item.taint ? (
        <p className="note small" data-testid="taint-finding">
          Tainted here: {item.taint.detector === 'quarantine' ? 'the quarantine detector' : 'the no_injection guardrail'} found an instruction planted in this result
          (“{item.taint.excerpt}”). From this step on, a governed run’s every write waits for a reviewer.
        </p>
      ) : null}
      {full ? <FullResult runId={runId} index={item.index} /> : <ResultPreview text={item.result.preview} name={item.name} truncated={item.result.truncated} chars={item.result.chars} />}
      <ToolWord schemaViolation={item.schemaViolation} progress={item.progress} />
      {item.hasMedia ? (
        <>
          <h3 className="small">Images, audio and resources (the model was given the description above)</h3>
          <ToolMedia runId={runId} index={item.index} tool={item.name} />
        </>
      ) : null}
      {item.result.truncated && !full ? (
        <button type="button" className="small" onClick={() => setFull(true)}>
          Show the full result ({item.result.chars.toLocaleString('en')} chars)
        </button>
      ) : null}
      {item.quarantinedText.length > 0 ? (
        <details>
          <summary className="note">Quarantined text (removed before the model saw it)</summary>
          <p className="small muted">
            The harness treats tool output as data. These paragraphs read like instructions to the assistant, so they were replaced by a
            marker; they are shown here only for inspection.
          </p>
          {item.quarantinedText.map((t, i) => (
            <pre key={i} className="entry">
              {t}
            </pre>
          ))}
        </details>
      ) : null}
    </div>
  );
}

/** A failed model-call attempt the client retried, where it happened: why, the planned wait, the recorded one. */
function RetryEntry({ item }: { item: Extract<AnnotatedStep, { kind: 'model_retry' }> }) {
  const v = retryView(item);
  return (
    <div className="entry retry" data-testid="retry-entry">
      <div className="row small">
        <strong>Model retry: {v.title}</strong>
        <span className="badge warn">{v.reason}</span>
        <span className="muted">
          {v.planned} · {v.waited}
          {v.cutShort ? ' (cut short)' : ''}
        </span>
      </div>
      <pre>{v.detail}</pre>
    </div>
  );
}

function Entry({ runId, item }: { runId: string; item: AnnotatedStep }) {
  switch (item.kind) {
    case 'model_turn':
      return (
        <div className="entry model">
          <div className="row small">
            <strong>Model turn</strong>
            <span className="muted">
              stop: {item.stopReason} ·{' '}
              {item.inputTokens !== null && item.outputTokens !== null ? (
                `${item.inputTokens} in / ${item.outputTokens} out`
              ) : (
                <span data-testid="usage-not-reported" title={item.usageEstimate ? `budgets counted a local estimate by ${item.usageEstimate.by}` : undefined}>
                  usage not reported{item.usageEstimate ? ` (estimated ~${item.usageEstimate.inputTokens} in / ~${item.usageEstimate.outputTokens} out)` : ''}
                </span>
              )}
              {item.cachedTokens ? ` (${item.cachedTokens} cached)` : ''} · context ≈ {item.contextTokensEstimate}
              {item.provider ? ` · ${item.provider}` : ''}
              {item.model ? <span data-testid="response-model"> · answered by {item.model}</span> : ''}
              {item.finishReason ? ` · finish: ${item.finishReason}` : ''}
              {item.timeToFirstTokenMs !== undefined ? <span data-testid="time-to-first-token"> · streamed, first token after {formatDuration(item.timeToFirstTokenMs)}</span> : ''}
            </span>
          </div>
          <PromptLeakNote leak={item.leak} where="This model turn" />
          {item.text ? <MarkdownText text={item.text} /> : null}
          {item.toolCalls.length ? <p className="small muted">asked for {item.toolCalls.map((c) => c.name).join(', ')}</p> : null}
        </div>
      );
    case 'tool_call':
      return <ToolEntry runId={runId} item={item} />;
    case 'guard':
      return (
        <div className="entry guard" data-testid="guard-entry">
          <div className="row">
            <strong>Guard: {item.guard}</strong>
            <span className="badge bad">{item.reason}</span>
            {item.errorKind ? <span className="badge warn">{item.errorKind}</span> : null}
          </div>
          <pre>{item.detail}</pre>
        </div>
      );
    case 'model_retry':
      return <RetryEntry item={item} />;
    case 'guardrail':
      return <GuardrailEntry item={item} />;
    case 'span':
      // An imported trace's chain, retriever, guardrail or custom span, with its attributes.
      return (
        <div className="entry span" data-testid="span-entry">
          <div className="row small">
            <strong>
              Step ({item.spanKind}): {item.name}
            </strong>
            <span className="muted">
              {item.latencyMs.toFixed(0)} ms{item.isError ? ' · error' : ''}
            </span>
          </div>
          {Object.keys(item.attributes).length > 0 ? <JsonTree value={item.attributes} label={`Attributes of ${item.name}`} /> : null}
        </div>
      );
    case 'tool_session':
      // The tool server had ended the executor's session (reaped, restarted): a new one answered the call below.
      return (
        <div className="entry session" data-testid="tool-session-entry">
          <div className="row small">
            <strong>New session with tool server {item.server}</strong>
            <span className="badge info">{item.reason === 'session_ended' ? 'the server had ended the old one' : 'after the connection was lost'}</span>
            <span className="muted mono">for {item.name}</span>
          </div>
          <p className="small">{item.detail}</p>
        </div>
      );
    case 'compaction':
      return (
        <div className="entry compaction">
          <strong>Compaction</strong>{' '}
          <span className="small">
            summarised {item.resultsSummarised} old tool result(s): context {item.tokensBefore} → {item.tokensAfter} tokens
          </span>
        </div>
      );
  }
}

export function StepEntries({ runId, step }: { runId: string; step: number }) {
  const q = useQuery(stepsQuery(runId, step));
  if (q.isPending) return <p className="muted small">Loading step {step}…</p>;
  if (q.isError) return <p className="field-error">{q.error.message}</p>;
  if (q.data.items.length === 0) return <p className="muted small">Nothing recorded at step {step} (the run is starting).</p>;
  return (
    <div data-testid="step-entries">
      {q.data.items.map((item) => (
        <Entry key={item.index} runId={runId} item={item} />
      ))}
    </div>
  );
}
