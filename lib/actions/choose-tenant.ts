'use server';
/**
 * Chooses the tenant a user with several memberships works in. The choice is a cookie, re-validated
 * against the user's memberships on every request (lib/auth/authorize.ts), so a forged value
 * is ignored; here a tenant the caller does not belong to is refused without saying whether it exists.
 */
import { cookies } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { ChooseTenantInputSchema } from '../schemas/governance';
import { TENANT_COOKIE } from '../auth/authorize';
import { ActionError } from '../boundary/errors';
import { safeAction } from '../boundary/safe-action';

/** How long the choice is remembered (it is re-checked on every request regardless). */
const TENANT_COOKIE_MAX_AGE_S = 60 * 60 * 24 * 180;

export const chooseTenantAction = safeAction({
  name: 'chooseTenant',
  schema: ChooseTenantInputSchema,
  role: 'viewer',
  handler: async ({ tenant }, { principal }) => {
    if (!principal.tenants.includes(tenant)) throw new ActionError('not_found', 'You are not a member of that tenant.');
    (await cookies()).set(TENANT_COOKIE, tenant, {
      httpOnly: true,
      sameSite: 'lax',
      // Like the session cookie: Secure when the dashboard is served over https.
      secure: (process.env.BETTER_AUTH_URL ?? '').startsWith('https:'),
      path: '/',
      maxAge: TENANT_COOKIE_MAX_AGE_S,
    });
    revalidatePath('/', 'layout');
    return { tenant };
  },
});
