/** The two final answers: word by word when they are related, each whole when they share too few words, once when the same. */
import { answerColumns } from '@/lib/charts/answer-diff';

export function AnswerDiff({ answerA, answerB, differs }: { answerA: string; answerB: string; differs: boolean }) {
  const columns = answerColumns(answerA, answerB);
  return (
    <section className="panel" aria-label="Final answers" data-testid="answer-diff">
      <h2 style={{ marginTop: 0 }}>Final answers</h2>
      {differs && !columns.related ? (
        <>
          <p className="alert info" style={{ marginTop: 0 }} data-testid="answers-unrelated">
            The answers are entirely different: they share too few words for a word-by-word comparison, so each is shown whole.
          </p>
          <div className="grid-2">
            {(['a', 'b'] as const).map((side) => (
              <div key={side}>
                <h3 style={{ marginTop: 0 }}>{side.toUpperCase()}</h3>
                <p className="answer-diff" data-testid={`answer-${side}`} data-whole="true">
                  {side === 'a' ? answerA : answerB}
                </p>
              </div>
            ))}
          </div>
        </>
      ) : differs ? (
        <>
          <p className="small muted" style={{ marginTop: 0 }}>
            Side by side, word by word: <del className="diff-a">struck through</del> is only in A, <ins className="diff-b">underlined</ins> only in B.
          </p>
          <div className="grid-2">
            {(['a', 'b'] as const).map((side) => (
              <div key={side}>
                <h3 style={{ marginTop: 0 }}>{side.toUpperCase()}</h3>
                <p className="answer-diff" data-testid={`answer-${side}`}>
                  {columns[side].map((part, i) =>
                    part.kind === 'only_a' ? (
                      <del key={i} className="diff-a">
                        {part.text}
                      </del>
                    ) : part.kind === 'only_b' ? (
                      <ins key={i} className="diff-b">
                        {part.text}
                      </ins>
                    ) : (
                      <span key={i}>{part.text}</span>
                    ),
                  )}
                </p>
              </div>
            ))}
          </div>
        </>
      ) : (
        <p className="answer-diff">{answerA}</p>
      )}
    </section>
  );
}
