/**
 * Which database DATABASE_URL names: unset means the embedded SQLite file `.data/stockroom.db`
 * under the working directory (scripts/db-url.mjs resolves it the same way for `npm start`).
 */
import path from 'node:path';
import { z } from 'zod';
import { InvalidInputError } from './errors';

export type Provider = 'sqlite' | 'postgres';
export type DatabaseTarget = { provider: 'sqlite'; url: string; file: string } | { provider: 'postgres'; url: string };

export const DEFAULT_SQLITE_PATH = '.data/stockroom.db';

const UrlSchema = z
  .string()
  .trim()
  .refine((v) => v === '' || v.startsWith('file:') || /^postgres(ql)?:\/\//i.test(v), {
    message: 'DATABASE_URL must start with file: or postgresql://',
  });

/** Parses a DATABASE_URL value; throws InvalidInputError naming the variable when it is unusable. */
export function resolveDatabaseUrl(raw: string | undefined): DatabaseTarget {
  const parsed = UrlSchema.safeParse(raw ?? '');
  if (!parsed.success) throw new InvalidInputError('DATABASE_URL', parsed.error.issues[0]?.message ?? 'invalid DATABASE_URL');
  const value = parsed.data;
  if (value.startsWith('file:') || value === '') {
    const file = path.resolve(value === '' ? DEFAULT_SQLITE_PATH : value.slice('file:'.length));
    return { provider: 'sqlite', url: `file:${file}`, file };
  }
  return { provider: 'postgres', url: value };
}
