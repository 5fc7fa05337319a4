/** "Compare this run with the same case under…": a link per other setting, and a run of it when none is stored yet. */
import Link from 'next/link';
import type { StoredRun } from '@/lib/db/runs/types';
import { COMPARE_SETTINGS, settingFlags, settingWords } from '@/lib/charts/compare-view';
import { RunSameCase } from './run-same-case';

export function SameCasePanel({
  anchor,
  withSetting,
  missingSameCase,
}: {
  anchor: StoredRun;
  withSetting: string | null;
  /** The case asked for under `withSetting` has no stored run: its dataset (null: not runnable here) and transport. */
  missingSameCase: { caseId: string; datasetId: string | null; transport: string } | null;
}) {
  return (
      <section className="panel" aria-label="Same case under another setting" data-testid="same-case">
        <h2 style={{ marginTop: 0 }}>
          Compare run {anchor.id.slice(-8)} ({anchor.run.caseId}, {anchor.meta.setting}) with the same case under…
        </h2>
        <div className="row">
          {COMPARE_SETTINGS.filter((st) => st !== anchor.meta.setting).map((st) => (
            <Link key={st} className="button" href={`/compare?a=${anchor.id}&with=${st}`}>
              {settingWords(st)}
            </Link>
          ))}
        </div>
        {missingSameCase && withSetting ? (
          <div className="stack" style={{ marginTop: '0.75rem' }}>
            <p className="alert info" data-testid="no-same-case">
              No stored run of {missingSameCase.caseId} under {settingWords(withSetting)} yet.
            </p>
            {missingSameCase.datasetId ? (
              <RunSameCase
                a={anchor.id}
                datasetId={missingSameCase.datasetId}
                caseId={missingSameCase.caseId}
                weaknesses={settingFlags(withSetting)}
                transport={missingSameCase.transport as 'local'}
                setting={settingWords(withSetting)}
              />
            ) : (
              <p className="muted small">Its dataset ({anchor.meta.datasetName}) is not one this dashboard can run.</p>
            )}
          </div>
        ) : null}
      </section>
  );
}
