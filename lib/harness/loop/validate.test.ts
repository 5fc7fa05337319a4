import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../json';
import { validateArguments } from './validate';

const restockSchema: JsonObject = {
  type: 'object',
  properties: {
    sku: { type: 'string', pattern: '^SKU-\\d{4}$' },
    quantity: { type: 'integer', minimum: 1 },
    priority: { type: 'string', enum: ['standard', 'urgent'] },
  },
  required: ['sku', 'quantity'],
  additionalProperties: false,
};
const orderSchema: JsonObject = {
  type: 'object',
  properties: { order_id: { type: 'string', pattern: '^ORD-\\d{4}$', description: 'ORD-####' } },
  required: ['order_id'],
  additionalProperties: false,
};
const searchSchema: JsonObject = {
  type: 'object',
  properties: { query: { type: 'string', minLength: 1 }, max_results: { type: 'integer', minimum: 1, maximum: 20 } },
  required: ['query'],
  additionalProperties: false,
};

describe('validateArguments', () => {
  it('accepts valid arguments, integral floats as integers', () => {
    expect(validateArguments(restockSchema, { sku: 'SKU-1020', quantity: 50 })).toBeNull();
    expect(validateArguments(restockSchema, { sku: 'SKU-1020', quantity: 5.0 })).toBeNull();
  });

  it('words a type error as Python jsonschema does (a quantity sent as a word)', () => {
    expect(validateArguments(restockSchema, { sku: 'SKU-1020', quantity: 'fifty', priority: 'standard' })).toBe(
      "quantity: 'fifty' is not of type 'integer'",
    );
  });

  it('words a pattern error with the repr of the pattern (backslash doubled)', () => {
    const msg = validateArguments(orderSchema, { order_id: '1002' });
    expect(msg).toBe("order_id: '1002' does not match '^ORD-\\\\d{4}$'");
    expect(msg).toHaveLength(46);
  });

  it('sorts errors by path and keeps at most three', () => {
    expect(validateArguments(restockSchema, { sku: 'SKU-1', quantity: 0, priority: 'high' })).toBe(
      "priority: 'high' is not one of ['standard', 'urgent']; quantity: 0 is less than the minimum of 1; sku: 'SKU-1' does not match '^SKU-\\\\d{4}$'",
    );
  });

  it('reports required and unexpected properties at the root, booleans are not integers', () => {
    expect(validateArguments(searchSchema, { max_results: true, foo: 1, bar: 2 })).toBe(
      "<root>: 'query' is a required property; <root>: Additional properties are not allowed ('bar', 'foo' were unexpected); max_results: True is not of type 'integer'",
    );
    expect(validateArguments(searchSchema, { query: '' })).toBe("query: '' should be non-empty");
    expect(validateArguments(searchSchema, { query: 'x', max_results: 21 })).toBe('max_results: 21 is greater than the maximum of 20');
  });

  it('refuses arguments that are not an object, naming the Python type', () => {
    expect(validateArguments(searchSchema, ['x'])).toBe('arguments must be a JSON object, got list');
    expect(validateArguments(searchSchema, null)).toBe('arguments must be a JSON object, got NoneType');
    expect(validateArguments(searchSchema, 'q')).toBe('arguments must be a JSON object, got str');
  });
});
