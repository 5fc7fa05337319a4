'use client';
/** Polls a suite or matrix run until it is done or failed (once a second while it works). */
import { useQuery } from '@tanstack/react-query';
import type { SuiteRunDto } from '@/lib/db/types';
import type { SuitePollDto } from '@/lib/db/suite-poll';
import { fetchJson } from './fetch-json';

/** What the poll returns (lib/db/suite-poll.ts). */
export type SuitePoll = SuitePollDto;

/**
 * `initial` is the server's read of the same suite, rendered with the page: progress shows from the
 * first paint instead of "Loading…" until the first poll answers (17.8 s on a busy machine).
 */
export function useSuiteRun(id: string | null, initial: SuitePoll | null = null, options: { partial?: boolean } = {}) {
  const partial = options.partial !== false;
  return useQuery({
    queryKey: ['suite', id, partial],
    enabled: id !== null,
    queryFn: ({ signal }) => fetchJson<SuitePoll>(`/api/suites/${encodeURIComponent(id!)}${partial ? '' : '?partial=0'}`, signal),
    initialData: initial && initial.suite.id === id ? initial : undefined,
    // Progress only (no partial metrics) is cheap to answer: asked twice a second, so the count moves as cases are stored.
    refetchInterval: (query) => {
      const status = query.state.data?.suite.status;
      return status === 'done' || status === 'failed' || status === 'cancelled' ? false : partial ? 1000 : 500;
    },
    staleTime: 0,
  });
}

/** Whether a polled suite has finished either way. */
export const isFinished = (s: SuiteRunDto | undefined) => s?.status === 'done' || s?.status === 'failed' || s?.status === 'cancelled';
