/** Instructor mode: flip one weakness or the run guard, run a case or the suite, see what moved and why. Built for a projector. */
import { requireUser } from '@/lib/auth/page-guard';
import { datasetOptions } from '@/lib/runs/datasets';
import { Instructor } from './_components/instructor';
import { holdsRole } from '@/lib/auth/authorize';
import { roleNote } from '@/components/role-note';
import { armedFault } from '@/lib/db/core/demo-faults';
import { FaultSwitch } from './_components/fault-switch';
import { loadSuggestions } from './load-suggestions';
import { pickableProviders } from '@/lib/runs/model-choice';
import { listGoldenSets } from '@/lib/db/review/golden-sets';

export const dynamic = 'force-dynamic';

export default async function InstructorPage() {
  const user = await requireUser();
  const datasets = datasetOptions(user.tenant);
  const runBlocked = holdsRole(user.memberships, 'operator') ? null : roleNote('Running cases and suites', 'operator', user.roles);
  return (
    <main className="page instructor">
      <h1>Instructor mode</h1>
      <p className="lede">
        Switch a harness weakness on, run one case or the whole golden suite, and compare with the same run without it. Use “Large type”
        (top right) when projecting.
      </p>
      <Instructor datasets={datasets} runBlocked={runBlocked} suggestions={await loadSuggestions(user.tenant, datasets)} modelProviders={pickableProviders()} goldenSets={(await listGoldenSets(user.tenant)).map((s) => s.name)} />
      <FaultSwitch armed={await armedFault(user.tenant)} blocked={holdsRole(user.memberships, 'admin', user.tenant) ? null : roleNote('Arming a demonstration fault', 'admin', user.roles)} />
    </main>
  );
}
