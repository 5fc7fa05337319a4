'use client';
/**
 * The messages one model call saw, as text, in a virtualised list (a long run's context can hold
 * thousands of blocks). Compaction summaries and quarantine markers are labelled and explained.
 */
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import type { ModelInputDto } from '@/lib/db/runs/types';
import { messageItems, type MessageItem } from '@/lib/charts/message-view';
import { fetchJson } from '@/components/fetch-json';

function Item({ item }: { item: MessageItem }) {
  const flagged = item.kind === 'tool_result' && item.compacted ? 'compacted' : item.kind === 'tool_result' && item.quarantined ? 'quarantined' : '';
  return (
    <div className={`msg ${flagged}`}>
      <div className="role">
        {item.role} ·{' '}
        {item.kind === 'tool_use' ? `tool call ${item.name}` : item.kind === 'tool_result' ? `tool result (${item.status})` : item.kind}
      </div>
      {item.kind === 'tool_result' && item.compacted ? (
        <p className="note" style={{ margin: '0.2rem 0' }}>
          Compacted: the context grew past the threshold, so the harness replaced this older result with a short summary.
        </p>
      ) : null}
      {item.kind === 'tool_result' && item.quarantined > 0 ? (
        <p className="note" style={{ margin: '0.2rem 0', color: 'var(--quarantine-text)' }}>
          Quarantined: {item.quarantined} instruction-like paragraph(s) were replaced by a marker before the model saw this result.
        </p>
      ) : null}
      <pre>{item.kind === 'tool_use' ? item.input : item.text}</pre>
    </div>
  );
}

/** `noCall` explains, for a frame without a model call, why there is none. */
export function ModelMessages({ runId, callIndex, noCall }: { runId: string; callIndex: number | null; noCall: string }) {
  const q = useQuery({
    queryKey: ['model-input', runId, callIndex],
    enabled: callIndex !== null,
    queryFn: ({ signal }) => fetchJson<ModelInputDto>(`/api/runs/${encodeURIComponent(runId)}/model-input?call=${callIndex}`, signal),
    staleTime: Infinity,
    retry: false,
  });
  const items = useMemo(() => (q.data ? messageItems(q.data.messages) : []), [q.data]);
  const parent = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: items.length,
    getScrollElement: () => parent.current,
    estimateSize: () => 90,
    overscan: 6,
  });

  if (callIndex === null) return <p className="muted small" data-testid="no-model-call">{noCall}</p>;
  if (q.isPending) return <p className="muted small">Loading messages…</p>;
  if (q.isError) return <p className="muted small">No model call was made at this step ({q.error.message}).</p>;
  return (
    <>
      <p className="small muted" style={{ marginTop: 0 }}>
        {items.length} block(s){q.data.inputTokens !== null ? ` · ${q.data.inputTokens} input tokens` : ''}. The system prompt and tool
        list are sent with every call and not repeated here.
      </p>
      {/* A scrolling region reached by Tab, so the keyboard scrolls it (axe scrollable-region-focusable). */}
      <div
        ref={parent}
        className="virtual-list"
        style={{ height: `min(32rem, ${virtual.getTotalSize() + 4}px)` }}
        data-testid="model-messages"
        tabIndex={0}
        role="region"
        aria-label={`What the model saw: ${items.length} block(s)`}
      >
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((v) => (
            <div
              key={v.key}
              data-index={v.index}
              ref={virtual.measureElement}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${v.start}px)` }}
            >
              <Item item={items[v.index]!} />
            </div>
          ))}
        </div>
      </div>
    </>
  );
}
