/** One calibration: agreement and kappa overall and per rubric, and each item's human label beside the judge's verdicts. */
import Link from 'next/link';
import type { CalibrationDetail as Detail } from '@/lib/db/review/judge';
import type { AgreementStats } from '@/lib/eval/agreement';
import { isScored, type JudgeOutcome } from '@/lib/eval/judge';
import { isLabelsSet } from '@/lib/eval/label-calibration';
import { figureText, itemDisagrees, kappaText, whenText } from '@/lib/charts/judge-view';

function Outcome({ o }: { o: JudgeOutcome }) {
  if (!isScored(o)) return <span className="badge warn" title={o.detail}>unscored ({o.unscored})</span>;
  return (
    <span title={o.rationale}>
      <span className={`badge ${o.passed ? 'good' : 'bad'}`}>{o.passed ? 'pass' : 'fail'}</span> {o.score}
    </span>
  );
}

function StatsRow({ label, s }: { label: string; s: AgreementStats }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td className="num">{figureText(s.agreement)}</td>
      <td className="num">
        {kappaText(s.kappa)}
        {/* Calibrations stored before issue 35 have no interval. */}
        {s.kappaInterval ? <span title={s.kappaInterval.method}>{` [${s.kappaInterval.low}, ${s.kappaInterval.high}]`}</span> : null}
      </td>
      <td className="num">
        {s.agreed}/{s.n}
      </td>
      <td className="num">{s.confusion.tp}</td>
      <td className="num">{s.confusion.fp}</td>
      <td className="num">{s.confusion.fn}</td>
      <td className="num">{s.confusion.tn}</td>
    </tr>
  );
}

export function CalibrationDetail({ c }: { c: Detail }) {
  const r = c.result;
  return (
    <section className="panel" aria-labelledby="calibration-detail" data-testid="calibration-detail">
      <h2 id="calibration-detail">
        {c.judge} on {c.setName}
      </h2>
      <p className="small muted">
        rubric {c.rubricVersion} · set sha256 {c.setSha256.slice(0, 12)} · {whenText(c.createdAt)} · provider calls {c.providerCalls}
      </p>
      <div className="table-wrap">
        <table className="data" data-testid="calibration-figures">
          <thead>
            <tr>
              <th scope="col">Verdict</th>
              <th scope="col" className="num">Agreement</th>
              <th scope="col" className="num">Cohen&apos;s kappa</th>
              <th scope="col" className="num">Agreed</th>
              <th scope="col" className="num">Judge pass, human pass</th>
              <th scope="col" className="num">Judge pass, human fail</th>
              <th scope="col" className="num">Judge fail, human pass</th>
              <th scope="col" className="num">Both fail</th>
            </tr>
          </thead>
          <tbody>
            <StatsRow label="overall (both rubrics)" s={r.overall} />
            <StatsRow label="answer correctness" s={r.correctness} />
            <StatsRow label="faithfulness" s={r.faithfulness} />
          </tbody>
        </table>
      </div>
      <h3>Items</h3>
      <div className="table-wrap">
        <table className="data" data-testid="calibration-items">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Probe</th>
              <th scope="col">Human</th>
              <th scope="col">Judge</th>
              <th scope="col">Correctness</th>
              <th scope="col">Faithfulness</th>
            </tr>
          </thead>
          <tbody>
            {r.items.map((i) => {
              const disagrees = itemDisagrees(i);
              return (
                <tr key={i.id} data-testid={`calibration-item-${i.id}`} data-disagrees={disagrees ? 'true' : undefined}>
                  <td className="mono">{isLabelsSet(c.setName) ? <Link href={`/runs/${i.id}`}>run {i.id.slice(-8)}</Link> : i.id}</td>
                  <td className="small">{i.probe ?? ''}</td>
                  <td>
                    <span className={`badge ${i.human === 'pass' ? 'good' : 'bad'}`}>{i.human}</span> {i.humanScore}/5
                  </td>
                  <td>
                    {i.verdict === null ? <span className="badge warn">unscored</span> : <span className={`badge ${i.verdict === 'pass' ? 'good' : 'bad'}`}>{i.verdict}</span>}
                    {disagrees ? <strong> disagrees</strong> : null}
                  </td>
                  <td>
                    <Outcome o={i.correctness} />
                  </td>
                  <td>
                    <Outcome o={i.faithfulness} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
