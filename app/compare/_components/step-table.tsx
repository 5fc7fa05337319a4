/** The step-by-step table of two aligned runs: each step's difference and what each side did. */
import { DIFFERENCE_LABELS, type AlignedStep, type Alignment } from '@/lib/charts/align-runs';

function Side({ side }: { side: AlignedStep['a'] }) {
  if (!side) return <span className="muted">(run had ended)</span>;
  return (
    <div className="stack">
      {side.calls.map((c, i) => (
        <div key={i}>
          <strong className="mono">{c.name}</strong> <span className={`badge ${c.status === 'ok' ? 'good' : 'bad'}`}>{c.status}</span>
          <pre>{c.args}</pre>
        </div>
      ))}
      {side.guards.map((g) => (
        <div key={g}>
          <span className="badge bad">guard</span> {g}
        </div>
      ))}
      {side.calls.length === 0 && side.text ? <pre className="muted">{side.text}</pre> : null}
    </div>
  );
}

/** The step-by-step table of an alignment (a whole run, or one agent's steps). */
export function StepTable({ alignment, idPrefix, testId, replayedStep = null }: { alignment: Alignment; idPrefix: string; testId: string; replayedStep?: number | null }) {
  return (
    <div className="table-wrap">
      <table className="data" data-testid={testId}>
        <thead>
          <tr>
            <th>Step</th>
            <th>Difference</th>
            <th>A</th>
            <th>B</th>
          </tr>
        </thead>
        <tbody>
          {alignment.steps.map((s) => (
            <tr
              key={s.step}
              id={`${idPrefix}${s.step}`}
              className={`diff-row ${s.difference}${replayedStep === s.step ? ' diverged' : ''}`}
              data-difference={s.difference}
              data-diverged={replayedStep === s.step ? 'true' : undefined}
            >
              <td className="num">
                {s.step}
                {replayedStep === s.step ? (
                  <div>
                    <span className="badge bad">diverged</span>
                  </div>
                ) : null}
              </td>
              <td>{s.difference === 'same' ? <span className="muted">same</span> : <strong>{DIFFERENCE_LABELS[s.difference]}</strong>}</td>
              <td>
                <Side side={s.a} />
              </td>
              <td>
                <Side side={s.b} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
