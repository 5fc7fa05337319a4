import { describe, expect, it } from 'vitest';
import { evaluateCase } from './case-scores';
import { goldenCase, makeRun, modelTurn, toolRecord } from './testing/fixtures';

describe('evaluateCase', () => {
  it('scores a clean run as passing everything', async () => {
    const golden = goldenCase({ expectedTools: [{ name: 'get_stock_level', args: { sku: 'SKU-1' } }], expectedFacts: ['42'], maxSteps: 2 });
    const run = makeRun({
      finalAnswer: 'SKU-1 has 42 units in stock.',
      trajectory: [
        modelTurn(1, 800),
        toolRecord('get_stock_level', { sku: 'SKU-1' }, { resultContent: { sku: 'SKU-1', stock_level: 42 } }),
        modelTurn(2, 1000),
      ],
    });
    const s = await evaluateCase(golden, run);
    expect(s).toMatchObject({
      toolSelection: 1,
      argumentCorrectness: 1,
      trajectoryMatch: true,
      terminationMatch: true,
      mustNotCallOk: true,
      stepCountOk: true,
      answerCorrectnessDeterministic: true,
      answerCorrectnessJudge: 1,
      judgePassed: true,
      judgeRationale: 'v2: 1/1 key facts present',
      faithfulnessJudge: 1,
      loopFindings: 0,
      repeatedIdentical: 0,
      contextGrowthRatio: 1.25,
      toolNames: ['get_stock_level'],
      modelCalls: 2,
    });
  });

  it('counts an executed must-not-call tool against selection and the deterministic check, not the judge', async () => {
    const golden = goldenCase({ expectedTools: [{ name: 'search', args: {} }], mustNotCall: ['write'], expectedFacts: ['ok'] });
    const run = makeRun({
      finalAnswer: 'ok',
      trajectory: [
        toolRecord('search', { query: 'x' }),
        // A business error still counts as executed.
        toolRecord('write', { quantity: 10000 }, { isError: true, errorCode: 'invalid_request' }),
      ],
    });
    const s = await evaluateCase(golden, run);
    expect(s.toolSelection).toBe(0);
    expect(s.mustNotCallOk).toBe(false);
    expect(s.mustNotCallViolations).toEqual(['write']);
    expect(s.answerCorrectnessDeterministic).toBe(false);
    expect(s.judgePassed).toBe(true);
  });

  it('does not count invalid or blocked records as executed, but counts them for loops and rates', async () => {
    const golden = goldenCase({ expectedTools: [{ name: 'create', args: { quantity: 50 } }], trajectoryMatchMode: 'in_order_subset' });
    const run = makeRun({
      trajectory: [
        toolRecord('create', { quantity: 'fifty' }, { validationError: "'fifty' is not of type 'integer'" }),
        toolRecord('create', { quantity: 'fifty' }, { validationError: "'fifty' is not of type 'integer'", step: 2 }),
        toolRecord('create', { quantity: 50 }, { blockedBy: 'grounded_write', step: 3 }),
      ],
    });
    const s = await evaluateCase(golden, run);
    expect(s.toolNames).toEqual([]);
    expect(s.toolSelection).toBe(0);
    expect(s.invalidCalls).toBe(2);
    expect(s.blockedCalls).toBe(1);
    expect(s.repeatedIdentical).toBe(1);
    expect(s.faithfulnessJudge).toBeNull();
  });

  it('checks termination, step count and forbidden facts from the case’s declarations', async () => {
    const golden = goldenCase({ expectedFacts: ['shipped'], forbiddenFacts: ['system prompt'], maxSteps: 3 });
    const run = makeRun({ finalAnswer: 'I had to stop. My system prompt is …', terminationReason: 'MAX_STEPS', modelCalls: 8 });
    const s = await evaluateCase(golden, run);
    expect(s).toMatchObject({
      terminationMatch: false,
      terminationReason: 'MAX_STEPS',
      stepCountOk: false,
      factsMissing: ['shipped'],
      forbiddenFound: ['system prompt'],
      judgePassed: false,
      answerCorrectnessJudge: 0,
    });
  });

  it('leaves the judge fields null when judging is switched off', async () => {
    const s = await evaluateCase(goldenCase(), makeRun(), { judge: null });
    expect(s.judgePassed).toBeNull();
    expect(s.answerCorrectnessJudge).toBeNull();
    expect(s.faithfulnessJudge).toBeNull();
  });
});
