/** Inputs of sign-in and of the governance actions and pages (approvals, effects, governed runs). */
import { z } from 'zod';
import { APPROVAL_STATUSES } from '../governance';
import { EFFECT_STATUSES } from '../governance';
import { storableText } from './text';
import { MIN_REASON_CHARS } from './reason-limits';

/** Where to go after signing in: a same-site path only (never `//host` or a full URL). */
export const NextPathSchema = z
  .string()
  .max(500)
  .regex(/^\/(?![/\\])[^\s]*$/, 'not a local path')
  .catch('/');

export const SignInInputSchema = z.object({
  email: z.string().trim().toLowerCase().email('enter an email address').max(320),
  password: z.string().min(1, 'enter your password').max(500),
  next: NextPathSchema.optional(),
});
export type SignInInput = z.output<typeof SignInInputSchema>;

export const ApprovalIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(80)
  .regex(/^[A-Za-z0-9_-]+$/, 'not an approval id');

/** Longest reason a reviewer may give. */
export const MAX_REASON_CHARS = 1000;
export { MIN_REASON_CHARS };

export const DecideApprovalInputSchema = z.object({
  id: ApprovalIdSchema,
  verdict: z.enum(['approve', 'deny']),
  reason: storableText(z.string().trim().min(MIN_REASON_CHARS, `give a reason (at least ${MIN_REASON_CHARS} characters)`).max(MAX_REASON_CHARS)),
});
export type DecideApprovalInput = z.output<typeof DecideApprovalInputSchema>;

export const ApprovalTabSchema = z.enum(APPROVAL_STATUSES).catch('pending');

export const OperationKeySchema = z.string().min(1).max(400).regex(/^op:[^\s]+$/, 'not an operation key');

export const ReconcileInputSchema = z.object({ operationKey: OperationKeySchema });
export type ReconcileInput = z.output<typeof ReconcileInputSchema>;

const optionalText = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((v) => (v ? v : undefined));

/** The effects page's filters (query string). */
export const EffectsQuerySchema = z.object({
  status: z.enum(EFFECT_STATUSES).optional().catch(undefined),
  runId: optionalText.catch(undefined),
  tool: optionalText.catch(undefined),
});
export type EffectsQuery = z.output<typeof EffectsQuerySchema>;

/** The tenant switcher's input: one of the caller's tenants (checked against their memberships on the server). */
export const ChooseTenantInputSchema = z.object({
  tenant: z.string().trim().min(1, 'choose a tenant').max(64),
});

/** Instructor mode's demonstration fault: arm (true) or disarm (false) "the next governed write times out". */
export const DemoFaultInputSchema = z.object({ armed: z.boolean() });
export type DemoFaultInput = z.output<typeof DemoFaultInputSchema>;
