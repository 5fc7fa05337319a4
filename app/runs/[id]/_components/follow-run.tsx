'use client';
/**
 * Follows a run that has not ended (queued for a worker, or a live model storing it step by step): its
 * progress arrives as server-sent events (app/api/runs/[id]/events; polling the progress route where
 * they cannot be had) and, whenever a step has been stored or the run has ended, the page re-renders
 * from the server so the replay grows with it; a streamed answer is shown as it forms. Nothing
 * follows once the run is over.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useState, useTransition } from 'react';
import { stopRunAction } from '@/lib/actions/stop-run';
import { isLiveStatus } from '@/lib/format/run-status';
import { fetchJson } from '@/components/fetch-json';
import type { RunProgressDto } from '@/lib/db/runs/run-progress';

/** How often a running run is polled when server-sent events cannot be had. */
const POLL_MS = 1000;

/** The run's progress as the server pushes it; `failed` when the event stream could not be opened. */
function useProgressEvents(runId: string, live: boolean): { pushed: RunProgressDto | null; failed: boolean; gone: boolean } {
  const [pushed, setPushed] = useState<RunProgressDto | null>(null);
  const [failed, setFailed] = useState(false);
  const [gone, setGone] = useState(false);
  useEffect(() => {
    if (!live) return;
    const events = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events`);
    events.addEventListener('progress', (e) => {
      const progress = JSON.parse((e as MessageEvent<string>).data) as RunProgressDto;
      setPushed(progress);
      // The server ends the stream after the end; without this the browser would reconnect.
      if (!isLiveStatus(progress.status)) events.close();
    });
    events.addEventListener('gone', () => {
      events.close();
      setGone(true);
    });
    // Refused (signed out, not found) or not an event stream: the browser gives up; poll instead.
    // A cut connection is retried by the browser itself (readyState CONNECTING).
    events.onerror = () => {
      if (events.readyState === EventSource.CLOSED) setFailed(true);
    };
    return () => events.close();
  }, [runId, live]);
  return { pushed, failed, gone };
}

/** `canStop`: the caller may stop the run (an operator); others see no button. */
export function FollowRun({ runId, status, steps, canStop = false }: { runId: string; status: string; steps: number; canStop?: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const live = isLiveStatus(status);
  const events = useProgressEvents(runId, live);
  const progress = useQuery({
    queryKey: ['run-progress', runId],
    enabled: live && events.failed,
    queryFn: ({ signal }) => fetchJson<RunProgressDto>(`/api/runs/${encodeURIComponent(runId)}/progress`, signal),
    refetchInterval: (q) => (q.state.data && !isLiveStatus(q.state.data.status) ? false : POLL_MS),
    staleTime: 0,
  });
  const seen = events.failed ? progress.data : events.pushed;
  useEffect(() => {
    if (events.gone) router.refresh();
  }, [events.gone, router]);
  useEffect(() => {
    if (!seen || (seen.status === status && seen.steps === steps)) return;
    // A step's entries fetched while it was the newest may have grown: forget them, then re-render.
    void queryClient.invalidateQueries({ queryKey: ['run-steps', runId] });
    router.refresh();
  }, [seen, status, steps, runId, router, queryClient]);
  const [stopError, setStopError] = useState<string | null>(null);
  const [stopping, startStop] = useTransition();
  if (!isLiveStatus(status)) return null;
  const stop = () =>
    startStop(async () => {
      const r = await stopRunAction({ id: runId });
      setStopError(r.ok ? null : r.error);
      router.refresh();
    });
  return (
    <div className="alert info" data-testid="run-live">
      <p role="status" aria-live="polite" style={{ margin: 0 }}>
        {status === 'queued'
          ? 'Queued: waiting for a worker to take this run. This page follows it once it starts.'
          : `${status === 'stopping' ? 'Stopping' : 'Running'}: ${steps} step${steps === 1 ? '' : 's'} stored so far. This page follows the run as each step completes.`}
        {progress.error ? <span className="small"> (could not check progress: {progress.error.message})</span> : null}
      </p>
      {seen?.toolProgress ? (
        <p className="small" data-testid="tool-progress" style={{ margin: 0 }}>
          <span className="mono">{seen.toolProgress.name}</span> is running:{' '}
          {seen.toolProgress.total !== null ? (
            <progress value={seen.toolProgress.progress} max={seen.toolProgress.total} aria-label={`${seen.toolProgress.name} progress`} />
          ) : null}{' '}
          {seen.toolProgress.progress}
          {seen.toolProgress.total !== null ? ` of ${seen.toolProgress.total}` : ''}
          {seen.toolProgress.message ? ` — ${seen.toolProgress.message}` : ''}
        </p>
      ) : null}
      {seen?.answerSoFar ? (
        <div data-testid="answer-so-far">
          <p className="small muted" style={{ margin: '0.5em 0 0' }}>
            The model is answering (step {seen.answerSoFar.step}); its text so far:
          </p>
          <p style={{ margin: 0, whiteSpace: 'pre-wrap' }}>
            {seen.answerSoFar.text}
            {seen.answerSoFar.truncated ? ' […]' : ''}
          </p>
        </div>
      ) : null}
      {canStop && (status === 'running' || status === 'queued') ? (
        <button type="button" className="secondary" onClick={stop} disabled={stopping} data-testid="stop-run">
          {stopping ? 'Stopping…' : 'Stop this run'}
        </button>
      ) : null}
      {stopError ? (
        <p role="alert" className="small">
          {stopError}
        </p>
      ) : null}
    </div>
  );
}
