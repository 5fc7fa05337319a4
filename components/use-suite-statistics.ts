'use client';
/** A finished suite's statistics (intervals, paired deltas, significance), from /api/suites/[id]/statistics; never refetched (they do not change). */
import { useQuery } from '@tanstack/react-query';
import type { SuiteStatistics } from '@/lib/eval/browser';
import { fetchJson } from './fetch-json';

export function useSuiteStatistics(id: string | null, options: { against?: string | null; enabled?: boolean } = {}) {
  const against = options.against ?? null;
  return useQuery({
    queryKey: ['suite-statistics', id, against],
    enabled: id !== null && options.enabled !== false,
    queryFn: ({ signal }) => fetchJson<SuiteStatistics>(`/api/suites/${encodeURIComponent(id!)}/statistics${against ? `?against=${encodeURIComponent(against)}` : ''}`, signal),
    staleTime: Infinity,
  });
}
