'use client';
/**
 * The demonstration fault: "the next governed write times out". Off by default and one-shot; while
 * it is armed the panel says so, who armed it, and where to watch the effect journal.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { setDemoFaultAction } from '@/lib/actions/set-demo-fault';
import type { ArmedFault } from '@/lib/db/core/demo-faults';
import { RoleNote } from '@/components/role-note';

export function FaultSwitch({ armed, blocked }: { armed: ArmedFault | null; blocked: string | null }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const set = (on: boolean) =>
    start(async () => {
      setError(null);
      const res = await setDemoFaultAction({ armed: on });
      if (!res.ok) setError(res.error);
      router.refresh();
    });
  return (
    <section className="panel" aria-labelledby="fault-heading" data-testid="fault-switch">
      <h2 id="fault-heading">Demonstration fault: the next write times out</h2>
      <p className="small">
        When armed, the next write of a governed run in this tenant is applied by the tool and then its answer is lost, as after a timeout.
        The effect journal cannot know whether it happened, so the entry stays <span className="mono">unknown</span> and is never re-sent;
        an operator reconciles it on <Link href="/effects?status=unknown">Effects</Link>, which asks the restock ledger by operation key.
        It fires once, then switches itself off.
      </p>
      <p role="status" data-testid="fault-state">
        {armed ? (
          <>
            <span className="badge bad">armed</span> by {armed.armedBy} at {armed.armedAt.replace('T', ' ').slice(0, 19)} UTC: the next governed write
            will time out.
          </>
        ) : (
          <>
            <span className="badge">off</span> Writes behave normally.
          </>
        )}
      </p>
      <button type="button" className={armed ? undefined : 'primary'} onClick={() => set(!armed)} disabled={pending || blocked !== null} aria-describedby={blocked ? 'fault-role-note' : undefined} data-testid="fault-toggle">
        {armed ? 'Disarm the fault' : 'Arm: make the next write time out'}
      </button>
      {blocked ? <RoleNote id="fault-role-note" text={blocked} /> : null}
      {error ? <p className="alert error">{error}</p> : null}
    </section>
  );
}
