'use client';
/**
 * A request's time left, counting down each second from the server's reading (the page's load);
 * the exact expiry is in its title. Text only: no colour carries the meaning.
 */
import { useEffect, useState } from 'react';
import { timeLeftText } from '@/lib/governance/queue-order';

export function TimeLeft({ expiresAt, escalated }: { expiresAt: string; escalated: string | null }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0); // the client's clock, once hydrated
    const t = setInterval(tick, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(t);
    };
  }, []);
  const until = Date.parse(expiresAt);
  return (
    <span title={`expires ${expiresAt.replace('T', ' ').slice(0, 19)} UTC`} data-testid="time-left">
      {now === null ? `expires ${expiresAt.replace('T', ' ').slice(0, 16)} UTC` : timeLeftText(until - now)}
      {escalated ? <span className="small"> · escalated to {escalated}s</span> : null}
    </span>
  );
}
