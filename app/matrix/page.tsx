/** The weakness matrix: run it on a dataset, see each flag's effect on the gate metrics, drill into the cases that moved. */
import { requireUser } from '@/lib/auth/page-guard';
import { listSuiteRuns } from '@/lib/db/suites/suites';
import { datasetOptions } from '@/lib/runs/datasets';
import { StoredIdSchema } from '@/lib/schemas/run-id';
import { MatrixClient } from './_components/matrix-client';
import { WeaknessLegend } from './_components/weakness-legend';
import { listGoldenSets } from '@/lib/db/review/golden-sets';
import { loadMcpServers } from '@/lib/mcp/client/server-config';
import { parseCell } from '@/lib/charts/matrix-view';
import { getSuitePoll } from '@/lib/db/suites/suite-poll';

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null;
import { holdsRole } from '@/lib/auth/authorize';
import { roleNote } from '@/components/role-note';
import { pickableProviders } from '@/lib/runs/model-choice';

export const dynamic = 'force-dynamic';

const idOrNull = (v: unknown) => {
  const parsed = StoredIdSchema.safeParse(Array.isArray(v) ? v[0] : v);
  return parsed.success ? parsed.data : null;
};

export default async function MatrixPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const runBlocked = holdsRole(user.memberships, 'operator') ? null : roleNote('Running the matrix', 'operator', user.roles);
  const params = await searchParams;
  const toolServers = loadMcpServers().map(({ id, title }) => ({ id, title: title ?? id }));
  const [{ items }, datasets] = await Promise.all([listSuiteRuns({ kind: 'matrix', limit: 50, tenant: user.tenant }), Promise.resolve(datasetOptions(user.tenant))]);
  const selected = idOrNull(params.suite) ?? items.find((s) => s.status === 'done')?.id ?? items[0]?.id ?? null;
  // A suite still working is read here too, so its progress is on the first paint, not after the first poll.
  const listed = items.find((s) => s.id === selected);
  // The selected suite rendered with the page, finished or not: the table is in the first paint instead of
  // waiting for hydration and then a client fetch of the same suite (issue 43: /matrix took 2.6 s in the browser).
  const initial = listed ? await getSuitePoll(listed.id, user.tenant).catch(() => null) : null;
  return (
    <main className="page">
      <h1>Weakness matrix</h1>
      <p className="lede">
        The golden suite runs once with no weakness and once with each weakness flag alone. Each bar group is one setting; the table
        shows how far each flag moves the gate metrics from <strong>none</strong>. Click a changed cell to see the cases that moved.
      </p>
      <WeaknessLegend />
      <MatrixClient datasets={datasets} suites={items} selectedId={selected} compareId={idOrNull(params.compare)} initialCell={parseCell(first(params.cell))} initialPoll={initial} runBlocked={runBlocked} toolServers={toolServers} modelProviders={pickableProviders()} goldenSets={(await listGoldenSets(user.tenant)).map((s) => s.name)} />
    </main>
  );
}
