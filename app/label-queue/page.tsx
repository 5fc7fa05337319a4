/**
 * The labelling queue: the runs matching the runs page's filters (by default those not labelled yet),
 * one after another, labelled with the keyboard. Every run of the queue is loaded with the page, so
 * moving to the next one needs no request.
 */
import Link from 'next/link';
import { requireUser } from '@/lib/auth/page-guard';
import { holdsRole } from '@/lib/auth/authorize';
import { listRuns } from '@/lib/db/runs/runs-list';
import { currentLabelSet, queueItems } from '@/lib/db/review/labels';
import { InvalidInputError } from '@/lib/db/core/errors';
import { RunsQuerySchema, columnSortOf, runFiltersOf, runsHref } from '@/lib/schemas/runs-query';
import { LabelQueue } from './_components/label-queue';
import { LabelSetForm } from './_components/label-set-form';

export const dynamic = 'force-dynamic';

/** Runs one queue page holds. */
const QUEUE_LENGTH = 100;

export default async function LabelQueuePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const query = RunsQuerySchema.parse(await searchParams);
  const labelled = query.labelled ?? 'no';
  const canLabel = holdsRole(user.memberships, 'reviewer', user.tenant);
  let ids: string[] = [];
  let error: string | null = null;
  try {
    const page = await listRuns({ filters: { ...runFiltersOf(query, user.tenant), labelled }, sort: columnSortOf(query), limit: QUEUE_LENGTH });
    ids = page.items.map((r) => r.id);
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw err;
    error = `${err.field}: ${err.message}`;
  }
  const [items, labelSet] = await Promise.all([queueItems(user.tenant, ids), currentLabelSet(user.tenant)]);
  return (
    <main className="page">
      <h1>Labelling queue</h1>
      <p className="muted small">
        {labelled === 'no' ? 'Runs not labelled yet' : labelled === 'yes' ? 'Runs already labelled' : 'Runs'} matching{' '}
        <Link href={runsHref({ ...query, labelled })}>these filters</Link> (up to {QUEUE_LENGTH}), newest first.
      </p>
      {holdsRole(user.memberships, 'admin', user.tenant) ? <LabelSetForm labelSet={{ version: labelSet.version, verdicts: labelSet.verdicts, categories: labelSet.categories }} /> : null}
      {error ? (
        <p className="alert error" role="alert">
          {error}
        </p>
      ) : !canLabel ? (
        <p className="panel">Labelling needs the reviewer role in this tenant.</p>
      ) : items.length === 0 ? (
        <p className="panel" data-testid="queue-empty">
          No runs to label here. <Link href="/runs">Back to the runs</Link>.
        </p>
      ) : (
        <LabelQueue items={items} labelSet={{ version: labelSet.version, verdicts: labelSet.verdicts, categories: labelSet.categories }} />
      )}
    </main>
  );
}
