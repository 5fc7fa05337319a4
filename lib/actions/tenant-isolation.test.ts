/** Tenant isolation of every read route and action, on SQLite (the suite: testing/tenant-isolation-suite.ts). */
import { vi } from 'vitest';
import { nextCacheMock, nextHeadersMock } from './testing/action-env';
import { tenantIsolationSuite } from './testing/tenant-isolation-suite';

vi.mock('next/headers', () => nextHeadersMock());
vi.mock('next/cache', () => nextCacheMock());

tenantIsolationSuite('sqlite', (route) => import(/* @vite-ignore */ `../../app/api/${route}/route`));
