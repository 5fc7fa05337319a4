import { describe, expect, it } from 'vitest';
import { makeRun } from '../testing/run-fixtures';
import { findMatch, ftsPhrase, likePattern, searchBody } from './run-search';

describe('searchBody and findMatch', () => {
  it('finds text in the question, the answer, a tool call’s arguments or result, and says which', () => {
    const run = { ...makeRun({ query: 'Where is ORD-6001?' }), finalAnswer: 'Tracking NW40718236.' };
    const body = searchBody(run);
    expect(findMatch(body, 'ord-6001')).toMatchObject({ field: 'question', match: 'ORD-6001' });
    expect(findMatch(body, 'nw4071')).toMatchObject({ field: 'answer', match: 'NW4071', before: 'Tracking ', after: '8236.' });
    expect(findMatch(body, 'quote')).toMatchObject({ field: 'tool arguments', tool: 'get_stock' });
    expect(findMatch(body, 'Widget 199')).toMatchObject({ field: 'tool result', tool: 'list_catalogue' });
    expect(findMatch(body, 'list_catal')).toMatchObject({ field: 'tool call', tool: 'list_catalogue' });
    expect(findMatch(body, 'nowhere at all')).toBeNull();
  });

  it('indexes a repeated call or payload once', () => {
    const run = makeRun({ rounds: 3 }); // list_catalogue returns the same catalogue at steps 1 and 3
    const body = searchBody(run);
    expect(body.split('R:list_catalogue').length - 1).toBe(1);
    expect(body.split('C:list_catalogue').length - 1).toBe(1);
    expect(body.split('R:get_stock').length - 1).toBe(1);
  });

  it('keeps separators out of stored text so a match never spans two fields', () => {
    const run = { ...makeRun({ query: 'a\u001eb\u001fc' }), finalAnswer: 'x' };
    expect(searchBody(run).startsWith('Q\u001fa b c\u001eA\u001fx')).toBe(true);
  });

  it('quotes search syntax and escapes LIKE wildcards', () => {
    expect(ftsPhrase('a" OR b*')).toBe('"a"" OR b*"');
    expect(likePattern('50%_off!')).toBe('%50!%!_off!!%');
  });
});
