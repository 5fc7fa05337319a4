/** Tenant isolation of every read route and action, on PostgreSQL (skipped when no server answers on 127.0.0.1:5432). */
import { describe, vi } from 'vitest';
import { testProviders } from '../db/testing/test-databases';
import { nextCacheMock, nextHeadersMock } from './testing/action-env';
import { tenantIsolationSuite } from './testing/tenant-isolation-suite';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

const postgres = (await testProviders()).find((p) => p.name === 'postgres')!;

describe.skipIf(postgres.skipReason !== null)('on PostgreSQL', () => {
  tenantIsolationSuite('postgres', (route) => import(/* @vite-ignore */ `../../app/api/${route}/route`));
});
