/** A dashboard user as the CLI (`user create`) and test setup give it: validated before anything is written. */
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH } from './password-rules';
import { DEFAULT_TENANT, RoleSchema } from '../governance';
import { TenantSchema } from './datasets';

export const NewUserSchema = z.object({
  email: z.string().trim().toLowerCase().max(320, 'the email must have at most 320 characters').email('the email is not an email address'),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `the password must have at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(MAX_PASSWORD_LENGTH, `the password must have at most ${MAX_PASSWORD_LENGTH} characters`),
  name: z.string().trim().min(1, 'the name must not be empty').max(200, 'the name must have at most 200 characters').optional(),
  roles: z.array(RoleSchema).min(1, 'give at least one role').readonly(),
  tenant: TenantSchema.default(DEFAULT_TENANT),
});
export type NewUserInput = z.input<typeof NewUserSchema>;
export type NewUser = z.output<typeof NewUserSchema>;
