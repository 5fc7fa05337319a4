'use client';
/**
 * Follows a run that is still running (a live model stores it step by step): polls its progress and,
 * whenever a step has been stored or the run has ended, re-renders the page from the server so the
 * replay grows with it. Nothing polls once the run is over.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { fetchJson } from '@/components/fetch-json';
import type { RunProgressDto } from '@/lib/db/run-progress';

/** How often a running run is polled. */
const POLL_MS = 1000;

export function FollowRun({ runId, status, steps }: { runId: string; status: string; steps: number }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const progress = useQuery({
    queryKey: ['run-progress', runId],
    enabled: status === 'running',
    queryFn: ({ signal }) => fetchJson<RunProgressDto>(`/api/runs/${encodeURIComponent(runId)}/progress`, signal),
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'running' ? false : POLL_MS),
    staleTime: 0,
  });
  const seen = progress.data;
  useEffect(() => {
    if (!seen || (seen.status === status && seen.steps === steps)) return;
    // A step's entries fetched while it was the newest may have grown: forget them, then re-render.
    void queryClient.invalidateQueries({ queryKey: ['run-steps', runId] });
    router.refresh();
  }, [seen, status, steps, runId, router, queryClient]);
  if (status !== 'running') return null;
  return (
    <p className="alert info" role="status" aria-live="polite" data-testid="run-live">
      Running: {steps} step{steps === 1 ? '' : 's'} stored so far. This page follows the run as each step completes.
      {progress.error ? <span className="small"> (could not check progress: {progress.error.message})</span> : null}
    </p>
  );
}
