'use client';
import { useEffect, useState } from 'react';

// The longest a deferred part waits for an idle moment on a busy main thread.
const IDLE_TIMEOUT_MS = 1_500;

/**
 * False until the browser has been idle once after hydration, then true: a part of a page that
 * nobody waits for (the replay's token chart) mounts after what they do wait for has drawn.
 */
export function useAfterIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => setIdle(true), { timeout: IDLE_TIMEOUT_MS });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(() => setIdle(true), 0);
    return () => window.clearTimeout(id);
  }, []);
  return idle;
}
