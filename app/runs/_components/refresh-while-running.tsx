'use client';
/** While the list shows a running run (a live model storing it step by step), re-renders it every few seconds so its steps and end appear. */
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

/** How often a list with running runs is refreshed. */
const REFRESH_MS = 2000;

export function RefreshWhileRunning({ active }: { active: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => router.refresh(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [active, router]);
  return null;
}
