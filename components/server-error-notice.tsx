'use client';
/**
 * What a page shows when its server render failed (app/error.tsx, app/global-error.tsx). An
 * unavailable database (told by the error's digest, lib/db/core/unavailable.ts) reads "The database is
 * unavailable, retrying" and the page comes back by itself: it asks /api/health every few seconds and
 * reloads once the database answers (the production server also sends `Refresh`, for a page without
 * script). Any other failure keeps the reference the server logged, as actions do.
 */
import { useEffect, useState } from 'react';
import { UNAVAILABLE_TEXT, unavailableReasonOfDigest, type UnavailableReason } from '@/lib/db/core/unavailable';

/** Seconds between health checks while the database is unavailable. */
const RETRY_EVERY_S = 3;

export function ServerErrorNotice({ error }: { error: Error & { digest?: string } }) {
  const [checks, setChecks] = useState(0);
  // An error that reached the page without its digest (wrapped on the way): ask the server once.
  const [asked, setAsked] = useState<UnavailableReason | null>(null);
  const reason = unavailableReasonOfDigest(error.digest) ?? asked;
  useEffect(() => {
    if (unavailableReasonOfDigest(error.digest)) return;
    let stopped = false;
    fetch('/api/health', { cache: 'no-store' })
      .then((res) => res.json() as Promise<{ database?: { ok?: boolean; reason?: string } }>)
      .then((body) => {
        const r = body.database?.reason;
        if (!stopped && body.database?.ok === false && (r === 'unreachable' || r === 'disk_full' || r === 'locked')) setAsked(r);
      })
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [error.digest]);
  useEffect(() => {
    if (!reason) return;
    let stopped = false;
    const timer = setInterval(async () => {
      try {
        const res = await fetch('/api/health', { cache: 'no-store' });
        const body = (await res.json()) as { database?: { ok?: boolean } };
        if (!stopped && body.database?.ok) window.location.reload();
      } catch {
        // The server itself is away: keep asking.
      }
      if (!stopped) setChecks((n) => n + 1);
    }, RETRY_EVERY_S * 1000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [reason]);
  if (reason) {
    return (
      <main className="page" data-testid="db-unavailable">
        <h1>The database is unavailable</h1>
        <p className="lede" role="status">
          {UNAVAILABLE_TEXT[reason]} This page tries again every {RETRY_EVERY_S} seconds and comes back by itself once the database answers
          {checks > 0 ? ` (${checks} ${checks === 1 ? 'try' : 'tries'} so far)` : ''}. Nothing you sent was saved half-way.
        </p>
      </main>
    );
  }
  return (
    <main className="page" data-testid="server-error">
      <h1>This page could not be shown</h1>
      <p className="lede" role="alert">
        Something went wrong on the server{error.digest ? ` (ref ${error.digest})` : ''}. Reload the page to try again.
      </p>
    </main>
  );
}
