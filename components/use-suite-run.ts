'use client';
/** Polls a suite or matrix run until it is done or failed (once a second while it works). */
import { useQuery } from '@tanstack/react-query';
import type { SuiteRunDto } from '@/lib/db/types';
import type { SuiteProgressDto } from '@/lib/db/suite-jobs';
import type { SuiteLiveDto } from '@/lib/db/suite-live';
import { fetchJson } from './fetch-json';

export interface SuitePoll extends SuiteLiveDto {
  suite: SuiteRunDto;
  /** Stored cases of the total, with an estimate of the time left. */
  progress: SuiteProgressDto;
}

export function useSuiteRun(id: string | null) {
  return useQuery({
    queryKey: ['suite', id],
    enabled: id !== null,
    queryFn: ({ signal }) => fetchJson<SuitePoll>(`/api/suites/${encodeURIComponent(id!)}`, signal),
    refetchInterval: (query) => {
      const status = query.state.data?.suite.status;
      return status === 'done' || status === 'failed' || status === 'cancelled' ? false : 1000;
    },
    staleTime: 0,
  });
}

/** Whether a polled suite has finished either way. */
export const isFinished = (s: SuiteRunDto | undefined) => s?.status === 'done' || s?.status === 'failed' || s?.status === 'cancelled';
