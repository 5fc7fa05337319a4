import { describe, expect, it } from 'vitest';
import { extractKeyFacts, factPresent, normalize } from './facts';

describe('normalize', () => {
  it.each([
    ['1,250,000 units', '1250,000 units'], // non-overlapping, left to right, as re.sub
    ['Fifty-five  items\n and TWELVE more', '50-5 items and 12 more'],
    ['Tomás ordered one·two — three', 'tomás ordered 1·2 — 3'],
    ['sixty sixteen seventy', '60 sixteen seventy'],
    ['x10 ten_ eleven', 'x10 ten_ eleven'], // digits and underscores are word characters
    ['Ｔen ١٢٣,٤٥٦', 'ｔen ١٢٣٤٥٦'], // Unicode digits count as digits, as in Python
    ['  spaced\u0085out\u3000 ', 'spaced out'],
  ])('normalises %j to %j', (text, want) => {
    expect(normalize(text)).toBe(want);
  });
});

describe('factPresent', () => {
  it.each([
    ['42', 'we have 420', false],
    ['42', 'we have 42.', true],
    ['125', '1250 left', false],
    ['3 units', '13 units', false],
    ['3 units', '0.3 units', false],
    ['3 units', 'Three units left', true],
    ['$8.50', 'fee $8.50.', true],
    ['5,000', 'above 5,000 units', true],
    ['10000', '10,000', true],
    ['RSR-', 'rsr-0001', true],
    ['', '', false],
    ['Order Number', 'give me the order number', true],
    ['2026-09-08', 'on 2026-09-08.', true],
    ['1.5', '11.5', false],
    ['1.5', '1.55', false],
    ['a+b (1)', 'see a+b (1) here', true], // regex metacharacters are escaped
  ])('%j in %j is %s', (fact, answer, want) => {
    expect(factPresent(fact, answer)).toBe(want);
  });
});

describe('extractKeyFacts', () => {
  it('finds ids, dates, money, percentages, numbers and status words in order, without repeats', () => {
    expect(
      extractKeyFacts(
        'SKU-1001 has 42 units; ORD-1002 shipped on 2026-09-08, total $1,161.00 (15% off) 3 items, 3 items. sku-1001 again',
      ),
    ).toEqual(['SKU-1001', '42', 'ORD-1002', 'shipped', '2026-09-08', '$1,161.00', '15%', 'sku-1001']);
  });

  it('drops single digits and trailing commas, keeps multi-word statuses', () => {
    expect(extractKeyFacts('Requests above 5,000 units are rejected; 10, or 1, 5,')).toEqual(['5,000', 'rejected', '10']);
    expect(extractKeyFacts('Manager approval needed: URGENT standard_x pending_approval')).toEqual([
      'Manager approval',
      'URGENT',
      'pending_approval',
    ]);
    expect(extractKeyFacts('a 7 b 77 $5 5% 12.5%  1,000,')).toEqual(['77', '$5', '5%', '12.5%', '1,000']);
  });
});
