/** Home: what this is, and a one-click first demo. */
import { requireUser } from '@/lib/auth/page-guard';
import Link from 'next/link';
import { countRuns } from '@/lib/db/runs/runs-list';
import { StartDemoButton } from './_components/start-demo-button';
import { holdsRole } from '@/lib/auth/authorize';
import { roleNote } from '@/components/role-note';
import { FIRST_RUN_RANGE } from '@/lib/format/suite-estimate';
import { datasetOptions } from '@/lib/runs/datasets';
import { BUNDLED_DATASET_ID } from '@/lib/schemas/datasets';
import { MATRIX_SETTINGS } from '@/lib/charts/matrix-view';
import { Fragment } from 'react';
import { WEAKNESS_FLAGS } from '@/lib/harness/config';
import { WEAKNESSES } from '@/lib/stockroom/weaknesses/weakness-table';

export const dynamic = 'force-dynamic';

export default async function HomePage() {
  const user = await requireUser();
  const runBlocked = holdsRole(user.memberships, 'operator') ? null : roleNote('Running the matrix', 'operator', user.roles);
  const runs = await countRuns({ tenant: user.tenant }, { cap: 1000 });
  // Every golden case of the bundled dataset under each matrix setting (305 for data/).
  const RUNS_IN_MATRIX = (datasetOptions(user.tenant).find((d) => d.id === BUNDLED_DATASET_ID)?.cases.length ?? 0) * MATRIX_SETTINGS.length;
  return (
    <main className="page">
      <section className="hero">
        <h1>Stockroom Harness Dashboard</h1>
        <p className="lede" style={{ fontSize: '1.1rem' }}>
          An agent answers warehouse questions through five tools, inside a harness that limits its steps, tokens and repeated calls.
          This dashboard shows what the agent did, why the harness stopped it, and how each of four switchable harness weaknesses moves
          the evaluation metrics. Everything runs locally with a deterministic model: no API keys, no network.
        </p>
      </section>
      <div className="grid-2">
        <section className="panel">
          <h2>First demo: the weakness matrix</h2>
          <p>
            Run the 61-case golden suite on the bundled dataset five times — once clean and once with each weakness — and see which
            metrics fall{RUNS_IN_MATRIX > 0 ? `: ${RUNS_IN_MATRIX} runs` : ""}. That takes {FIRST_RUN_RANGE}; the matrix page counts the runs as they are stored, with the
            time left, and fills in the table as they arrive.
          </p>
          <StartDemoButton runBlocked={runBlocked} />
        </section>
        <section className="panel">
          <h2>Then</h2>
          <ol className="steps-list">
            <li>
              In the matrix, click a red cell to list the cases that moved, and open one to <strong>replay</strong> it step by step (← →
              keys).
            </li>
            <li>
              <Link href="/compare">Compare</Link> a case with and without a weakness, aligned by step.
            </li>
            <li>
              <Link href="/instructor">Instructor mode</Link>: flip one switch and show a class what changes.
            </li>
            <li>
              <Link href="/runs">Runs</Link>: every stored run ({runs.exact ? runs.count : `${runs.count}+`} so far), filterable; run your
              own query there.
            </li>
          </ol>
        </section>
      </div>
      <section className="panel">
        <h2>The four weaknesses</h2>
        <dl className="kv">
          {WEAKNESS_FLAGS.map((flag) => (
            <Fragment key={flag}>
              <dt className="mono">{flag}</dt>
              <dd>{WEAKNESSES[flag].description}</dd>
            </Fragment>
          ))}
        </dl>
      </section>
    </main>
  );
}
