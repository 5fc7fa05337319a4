'use client';
/**
 * Polls a suite or matrix run until it is done or failed (once a second while it works), and is told
 * of each change of its status as server-sent events; the end arrives with the finished suite, drawn
 * at once rather than at the next poll or after one more request (issue 36: the first demo's table
 * waited up to a second for it).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { SuiteRunDto } from '@/lib/db/runs/types';
import type { SuitePollDto } from '@/lib/db/suites/suite-poll';
import { fetchJson } from './fetch-json';

/** What the poll returns (lib/db/suites/suite-poll.ts). */
export type SuitePoll = SuitePollDto;

const ended = (status: string | undefined) => status === 'done' || status === 'failed' || status === 'cancelled';

/**
 * `initial` is the server's read of the same suite, rendered with the page: progress shows from the
 * first paint instead of "Loading…" until the first poll answers (17.8 s on a busy machine).
 */
export function useSuiteRun(id: string | null, initial: SuitePoll | null = null, options: { partial?: boolean } = {}) {
  const partial = options.partial !== false;
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['suite', id, partial],
    enabled: id !== null,
    queryFn: ({ signal }) => fetchJson<SuitePoll>(`/api/suites/${encodeURIComponent(id!)}${partial ? '' : '?partial=0'}`, signal),
    initialData: initial && initial.suite.id === id ? initial : undefined,
    // Progress only (no partial metrics) is cheap to answer: asked twice a second, so the count moves as cases are stored.
    refetchInterval: (query) => (ended(query.state.data?.suite.status) ? false : partial ? 1000 : 500),
    staleTime: 0,
  });
  const working = id !== null && !ended(query.data?.suite.status);
  const { refetch } = query;
  useEffect(() => {
    if (!working || id === null) return;
    const events = new EventSource(`/api/suites/${encodeURIComponent(id)}/events`);
    let seen: string | null = null;
    events.addEventListener('status', (e) => {
      const { status, poll } = JSON.parse((e as MessageEvent<string>).data) as { status: string; poll?: SuitePoll };
      // The end comes with the finished suite: shown as it is. A new status without it (running): fetch
      // the suite now. The server ends the stream after the end.
      // A poll still in flight (read before the end) is cancelled first, so it cannot draw the suite as running again.
      if (poll && poll.suite.id === id) void queryClient.cancelQueries({ queryKey: ['suite', id, partial] }).then(() => queryClient.setQueryData(['suite', id, partial], poll));
      else if ((seen !== null && status !== seen) || ended(status)) void refetch();
      seen = status;
      if (ended(status)) events.close();
    });
    events.addEventListener('gone', () => {
      events.close();
      void refetch();
    });
    // Refused or cut for good: the browser gives up and the poll above carries on alone.
    return () => events.close();
  }, [id, working, refetch, queryClient, partial]);
  return query;
}

/** Whether a polled suite has finished either way. */
export const isFinished = (s: SuiteRunDto | undefined) => s?.status === 'done' || s?.status === 'failed' || s?.status === 'cancelled';
