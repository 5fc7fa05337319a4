/** The dashboard users the browser tests sign in as (created by e2e/global-setup.ts). */
import path from 'node:path';

export const E2E_PASSWORD = 'e2e-password-not-secret';

/** Users by name: their roles in one tenant each (`tenant`, default kittiwake), plus `also` for a second tenant. */
interface E2eUserSpec {
  email: string;
  roles: string;
  tenant?: string;
  also?: { roles: string; tenant: string };
}

export const E2E_USERS = {
  /** The default signed-in user of every spec: may start runs, review and delete. */
  admin: { email: 'admin@e2e.test', roles: 'admin,operator,reviewer' },
  operator: { email: 'operator@e2e.test', roles: 'operator' },
  reviewer: { email: 'reviewer@e2e.test', roles: 'reviewer' },
  viewer: { email: 'viewer@e2e.test', roles: 'viewer' },
  /** Another tenant's admin and reviewer (tenant isolation). */
  puffinAdmin: { email: 'admin@puffin.e2e.test', roles: 'admin,operator,reviewer', tenant: 'puffin' },
  puffinReviewer: { email: 'reviewer@puffin.e2e.test', roles: 'reviewer', tenant: 'puffin' },
  /** A member of two tenants, who switches between them. */
  multi: { email: 'multi@e2e.test', roles: 'operator', also: { roles: 'reviewer', tenant: 'puffin' } },
} satisfies Record<string, E2eUserSpec>;
export type E2eUser = keyof typeof E2E_USERS;

/** Saved browser state (session cookie) of a signed-in user; git-ignored with test-results/. */
export function storageStateOf(user: E2eUser): string {
  return path.resolve('test-results', '.auth', `${user}.json`);
}

/** The OTLP receiver's bearer token in the browser tests (its hash is configured for tenant kittiwake). */
export const E2E_OTLP_TOKEN = 'e2e-otlp-token-not-secret-0123456789';

/** The e2e server's session secret (playwright.config.ts): a second server on the same database accepts the same sessions. */
export const E2E_AUTH_SECRET = 'e2e-session-secret-not-for-production-0123456789';
