/**
 * The classifier of an unavailable database, on the shapes the drivers throw (as seen from Prisma
 * 6.19 with its pg and better-sqlite3 adapters, node-postgres and better-sqlite3 in the fault tests:
 * lib/actions/db-unavailable-pg.test.ts, lib/actions/sqlite-faults.test.ts), and on failures that
 * must stay what they are.
 */
import { describe, expect, it } from 'vitest';
import { asDatabaseUnavailable, DatabaseUnavailableError, unavailableReasonOfDigest } from './unavailable';

const prismaKnown = (code: string, cause?: unknown) => Object.assign(new Error('x'), { code, meta: cause ? { driverAdapterError: { name: 'DriverAdapterError', cause } } : {} });

describe('asDatabaseUnavailable', () => {
  it.each([
    ['Prisma P1001 (cannot reach the server)', prismaKnown('P1001', { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 }), 'unreachable'],
    ['a raw query wrapped as P2010 around DatabaseNotReachable', prismaKnown('P2010', { kind: 'DatabaseNotReachable' }), 'unreachable'],
    ['a driver-adapter error for an administrator shutdown (57P01)', Object.assign(new Error('terminating connection'), { cause: { kind: 'postgres', code: '57P01' } }), 'unreachable'],
    ['node-postgres ECONNREFUSED', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', syscall: 'connect', errno: -111 }), 'unreachable'],
    ['node-postgres "Connection terminated unexpectedly"', new Error('Connection terminated unexpectedly'), 'unreachable'],
    ['a read-only transaction after a fail-over (25006)', { kind: 'postgres', code: '25006' }, 'unreachable'],
    ['PostgreSQL disk full (53100)', prismaKnown('P2010', { kind: 'postgres', code: '53100' }), 'disk_full'],
    ['better-sqlite3 SQLITE_FULL', Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }), 'disk_full'],
    ['the SQLite adapter’s SocketTimeout for SQLITE_BUSY', prismaKnown('P2010', { kind: 'SocketTimeout', originalCode: 'SQLITE_BUSY' }), 'locked'],
    ['better-sqlite3 SQLITE_BUSY_SNAPSHOT', Object.assign(new Error('busy'), { code: 'SQLITE_BUSY_SNAPSHOT' }), 'locked'],
    // The spellings the job engine met first (lib/jobs/connection-lost.ts now asks this classifier).
    ['a dropped database (57P04)', { kind: 'postgres', code: '57P04' }, 'unreachable'],
    ['a network that is down (ENETDOWN)', Object.assign(new Error('connect ENETDOWN'), { code: 'ENETDOWN' }), 'unreachable'],
    ['node-postgres "Connection ended unexpectedly"', new Error('Connection ended unexpectedly'), 'unreachable'],
    ['a server shutdown passed on as text', new Error('error: terminating connection due to administrator command'), 'unreachable'],
    ['an AggregateError of connect attempts', new AggregateError([new Error('x'), Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })]), 'unreachable'],
    ['a wrapped message that keeps the driver’s words', new Error('resuming the run failed: Connection terminated unexpectedly'), 'unreachable'],
    ['a cause given as text', new Error('storing failed', { cause: 'Connection terminated due to connection timeout' }), 'unreachable'],
    ['this error made by another copy of the module', Object.assign(new Error('x'), { code: 'db_unavailable', reason: 'disk_full' }), 'disk_full'],
  ])('classifies %s', (_, err, reason) => {
    expect(asDatabaseUnavailable(err)).toMatchObject({ code: 'db_unavailable', reason, digest: `STOCKROOM_DB_UNAVAILABLE;${reason}` });
  });

  it.each([
    ['a unique violation (P2002)', prismaKnown('P2002', { kind: 'UniqueConstraintViolation' })],
    ['a missing row (P2025)', prismaKnown('P2025')],
    ['a syntax error (42601)', { kind: 'postgres', code: '42601' }],
    ['SQLITE_CONSTRAINT_UNIQUE', Object.assign(new Error('UNIQUE'), { code: 'SQLITE_CONSTRAINT_UNIQUE' })],
    ['a plain error', new Error('boom')],
    ['a string', 'boom'],
  ])('leaves %s alone', (_, err) => {
    expect(asDatabaseUnavailable(err)).toBeNull();
  });

  it('keeps an already classified error, and its digest reads back as its reason', () => {
    const err = new DatabaseUnavailableError('locked');
    expect(asDatabaseUnavailable(err)).toBe(err);
    expect(unavailableReasonOfDigest(err.digest)).toBe('locked');
    expect(unavailableReasonOfDigest('1234567')).toBeNull();
    expect(unavailableReasonOfDigest(undefined)).toBeNull();
  });
});
