import type { ToolRecord } from '@/lib/harness/types';

/**
 * What a third-party MCP tool said beside its result (issue 40): the outputSchema it broke, and the
 * progress it reported while it ran (the last ones kept). Both are the server's text: shown as text.
 */
export function ToolWord({ schemaViolation, progress }: Pick<ToolRecord, 'schemaViolation' | 'progress'>) {
  return (
    <>
      {schemaViolation ? (
        <>
          <h3 className="small">Output schema violation</h3>
          <p className="note small" data-testid="schema-violation">
            The tool broke the outputSchema it declares, so the model was given an error instead of its result: {schemaViolation}
          </p>
        </>
      ) : null}
      {progress?.length ? (
        <details data-testid="tool-progress">
          <summary className="small">
            Progress reported while it ran ({progress.length} kept; the last is {progress.at(-1)!.progress}
            {progress.at(-1)!.total !== undefined ? ` of ${progress.at(-1)!.total}` : ''})
          </summary>
          <ol className="small mono">
            {progress.map((p, i) => (
              <li key={i}>
                {p.progress}
                {p.total !== undefined ? ` / ${p.total}` : ''}
                {p.message ? ` — ${p.message}` : ''}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </>
  );
}
