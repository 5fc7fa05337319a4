/** The tenant's calibrations, newest first: judge, set, items, agreement and kappa; one links to its detail. */
import Link from 'next/link';
import type { listCalibrations } from '@/lib/db/review/judge';
import { figureText, kappaText, whenText } from '@/lib/charts/judge-view';

export function CalibrationsTable({ calibrations, currentId }: { calibrations: Awaited<ReturnType<typeof listCalibrations>>; currentId: string | undefined }) {
  return (
    <section className="panel" aria-labelledby="calibrations-heading">
      <h2 id="calibrations-heading">Calibrations</h2>
      <div className="table-wrap">
        <table className="data" data-testid="calibrations-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Judge</th>
              <th scope="col">Set</th>
              <th scope="col" className="num">Items</th>
              <th scope="col" className="num">Unscored</th>
              <th scope="col" className="num">Agreement</th>
              <th scope="col" className="num">Cohen&apos;s kappa</th>
              <th scope="col" className="num">Provider calls</th>
            </tr>
          </thead>
          <tbody>
            {calibrations.map((c) => (
              <tr key={c.id} aria-current={c.id === currentId ? 'true' : undefined}>
                <td className="nowrap small">
                  <Link href={`/judge?id=${c.id}`}>{whenText(c.createdAt)}</Link>
                </td>
                <td className="mono">{c.judge}</td>
                <td className="small">{c.setName}</td>
                <td className="num">{c.items}</td>
                <td className="num">{c.unscored}</td>
                <td className="num">{figureText(c.agreement)}</td>
                <td className="num">{kappaText(c.kappa)}</td>
                <td className="num">{c.providerCalls}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
