import { describe, expect, it } from 'vitest';
import { isConnectionLost } from './connection-lost';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isConnectionLost', () => {
  it('knows the socket errors, SQLSTATE 08/57P0x and the messages pg and Prisma give when the server goes away', () => {
    expect(isConnectionLost(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
    expect(isConnectionLost(withCode('terminating connection due to administrator command', '57P01'))).toBe(true);
    expect(isConnectionLost(withCode('the database system is starting up', '57P03'))).toBe(true);
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLost(withCode("Can't reach database server at `127.0.0.1:5432`", 'P1001'))).toBe(true);
    expect(isConnectionLost(Object.assign(new Error('Server has closed the connection.'), { code: 'P1017' }))).toBe(true);
  });

  it('finds the loss under causes, aggregates and Prisma driver errors', () => {
    expect(isConnectionLost(new Error('storing the case failed', { cause: withCode('read ECONNRESET', 'ECONNRESET') }))).toBe(true);
    expect(isConnectionLost(new AggregateError([new Error('x'), withCode('boom', 'ECONNREFUSED')]))).toBe(true);
    const prisma = Object.assign(new Error('Invalid invocation'), { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } } });
    expect(isConnectionLost(prisma)).toBe(true);
  });

  it('does not take a job’s own failure for a lost connection', () => {
    expect(isConnectionLost(withCode('duplicate key value violates unique constraint', '23505'))).toBe(false);
    expect(isConnectionLost(new Error('the model answered 500'))).toBe(false);
    expect(isConnectionLost(new SyntaxError('Unexpected token'))).toBe(false);
    expect(isConnectionLost(undefined)).toBe(false);
  });
});
