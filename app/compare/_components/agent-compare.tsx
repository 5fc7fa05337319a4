/** Runs of several agents compared agent by agent, each aligned with the agent of the same path in the other run. */
import type { alignByAgent } from '@/lib/charts/align-agents';
import { StepTable } from './step-table';

export function AgentCompare({ byAgent }: { byAgent: ReturnType<typeof alignByAgent> }) {
  return (
    <>
      <p className="small muted" data-testid="compare-by-agent-note">
        These runs have several agents: each agent is compared with the agent of the same path in the other run, its steps counted from its own first.
      </p>
      {byAgent.map((g, i) => (
        <section key={g.path} className="panel" aria-label={`Agent ${g.path}`} data-testid="agent-compare" data-agent={g.path} data-present={g.presentIn}>
          <h2 style={{ marginTop: 0 }}>
            <span className="mono">{g.path}</span>{' '}
            {g.presentIn !== 'both' ? <span className="badge warn">only in {g.presentIn.toUpperCase()}</span> : null}
          </h2>
          <p className="small" style={{ marginTop: 0 }}>
            {g.alignment.differentSteps === 0 ? 'Same steps.' : `${g.alignment.differentSteps} step(s) differ.`}{' '}
            {g.alignment.terminationDiffers ? (
              <strong className="delta worse">
                Ended {g.ended.a} in A, {g.ended.b} in B.
              </strong>
            ) : (
              <>Ended {g.ended.a} in both.</>
            )}
          </p>
          <StepTable alignment={g.alignment} idPrefix={`agent-${i}-step-`} testId="compare-table" />
        </section>
      ))}
    </>
  );
}
