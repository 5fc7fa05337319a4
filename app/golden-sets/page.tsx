/**
 * The tenant's golden sets (stored, versioned; made from runs with "Add to a golden set" or imported
 * as golden JSONL): each set's newest version, its download, and an eval of it on one of the tenant's
 * datasets, run as a suite like the bundled file's.
 */
import { requireUser } from '@/lib/auth/page-guard';
import { holdsRole } from '@/lib/auth/authorize';
import { listGoldenSets } from '@/lib/db/review/golden-sets';
import { datasetOptions } from '@/lib/runs/datasets';
import { GoldenSetTools } from './_components/golden-set-tools';
import { pickableProviders } from '@/lib/runs/model-choice';

export const dynamic = 'force-dynamic';

export default async function GoldenSetsPage() {
  const user = await requireUser();
  const sets = await listGoldenSets(user.tenant);
  const canRun = holdsRole(user.memberships, 'operator', user.tenant);
  const datasets = datasetOptions(user.tenant)
    .filter((d) => d.problem === null)
    .map((d) => ({ id: d.id, name: d.name }));
  return (
    <main className="page">
      <h1>Golden sets</h1>
      <p className="lede">
        Cases made from runs (&ldquo;Add to a golden set&rdquo; on a run) or imported in the course&apos;s golden JSONL format. Every change stores a new version; an eval
        records the version it ran. From the command line: <span className="mono">stockroom eval --golden-set NAME[@VERSION] --tenant T</span>.
      </p>
      {sets.length === 0 ? (
        <p className="panel" data-testid="no-golden-sets">
          No golden sets yet: open a run and use &ldquo;Add to a golden set&rdquo;, or import a file below.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="golden-sets">
            <thead>
              <tr>
                <th>Set</th>
                <th className="num">Version</th>
                <th className="num">Cases</th>
                <th>Changed</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {sets.map((s) => (
                <tr key={s.name}>
                  <td className="mono">{s.name}</td>
                  <td className="num">{s.version}</td>
                  <td className="num">{s.caseCount}</td>
                  <td className="small">
                    <time dateTime={s.createdAt}>{s.createdAt.slice(0, 19).replace('T', ' ')}</time>
                  </td>
                  <td>
                    <a href={`/api/golden-sets/${s.name}/export`} download>
                      Download JSONL
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {canRun ? <GoldenSetTools sets={sets.map((s) => s.name)} datasets={datasets} modelProviders={pickableProviders()} /> : <p className="muted small">Operators run and import golden sets.</p>}
    </main>
  );
}
