import { describe, expect, it } from 'vitest';
import { findJsonSyntaxProblem, lineOfOffset } from './json-syntax';

describe('findJsonSyntaxProblem', () => {
  it('accepts valid JSON', () => {
    expect(findJsonSyntaxProblem('[\n {"a": [1, -2.5e3, true, null, "x\\"y"]}, {}\n]\n')).toBeNull();
  });

  it.each([
    ['[\n{"a": 1,}\n]', 2],
    ['[1,\n2\n,]', 3],
    ['{\n  "a": tru\n}', 2],
    ['{\n  "a": 1\n  "b": 2\n}', 3],
    ['[\n"open', 2],
    ['[1]\n\n x', 3],
  ])('places the error in %j on line %i', (text, line) => {
    const problem = findJsonSyntaxProblem(text);
    expect(problem).not.toBeNull();
    expect(lineOfOffset(text, problem!.offset)).toBe(line);
  });
});

describe('lineOfOffset', () => {
  it('counts LF, CRLF and CR line ends', () => {
    expect(lineOfOffset('a\nb\r\nc\rd', 8)).toBe(4);
    expect(lineOfOffset('abc', 2)).toBe(1);
  });
});
