import 'server-only';
/**
 * The authorisation seam every action and mutating route goes through. Today there is no sign-in:
 * the caller is the local operator. The governance issue replaces this body with a session check;
 * callers already state the role they need, so nothing else changes then.
 */
import { ForbiddenError } from './errors';

export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Who is calling. */
export interface Principal {
  id: string;
  name: string;
  role: Role;
}

const LOCAL_OPERATOR: Principal = { id: 'local', name: 'Local operator', role: 'operator' };

const rank = (r: Role) => ROLES.indexOf(r);

/** Returns the caller when they hold `required` (or a higher role); throws ForbiddenError otherwise. */
export async function authorize(required: Role): Promise<Principal> {
  const principal = LOCAL_OPERATOR;
  if (rank(principal.role) < rank(required)) throw new ForbiddenError();
  return principal;
}
