/**
 * Who a run acts for, and who may review. Roles are per tenant (a reviewer of one tenant is nobody
 * in another); scopes decide which tools an actor may propose at all.
 */
import { z } from 'zod';

export const ROLES = ['viewer', 'operator', 'reviewer', 'admin'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** The tenant the bundled dataset belongs to. */
export const DEFAULT_TENANT = 'kittiwake';

/** The actor an agent run acts on behalf of. */
export const PrincipalSchema = z.object({
  subject: z.string().min(1),
  tenant: z.string().min(1),
  scopes: z.array(z.string().min(1)),
});
export type Principal = z.infer<typeof PrincipalSchema>;

/** One role in one tenant. */
export interface Membership {
  tenant: string;
  role: Role;
}

/** A dashboard user as governance sees them: an id and their memberships. */
export interface ReviewerIdentity {
  id: string;
  memberships: readonly Membership[];
}

/** Scopes an operator's runs get: every tool of the bundled environment. */
export const OPERATOR_SCOPES: readonly string[] = Object.freeze(['inventory:read', 'inventory:write', 'orders:read', 'policy:read']);

/**
 * Whether `user` holds `role` in `tenant`. Admins hold every role in their tenants; `reviewer` is
 * separate from `operator` (an operator does not review by default).
 */
export function hasTenantRole(user: ReviewerIdentity, tenant: string, role: Role): boolean {
  return user.memberships.some((m) => m.tenant === tenant && (m.role === role || m.role === 'admin'));
}
