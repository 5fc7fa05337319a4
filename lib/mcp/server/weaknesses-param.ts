/** The `?weaknesses=a,b` query parameter of an MCP endpoint URL, parsed and validated. */
import { z } from 'zod';
import { WEAKNESS_FLAGS, type WeaknessFlag } from '../../harness';

const WeaknessesParamSchema = z
  .string()
  .transform((raw) =>
    raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.enum(WEAKNESS_FLAGS)));

/** Reads `weaknesses` (comma-separated; absent or empty means none); a bad value names the parameter and the allowed values. */
export function parseWeaknessesParam(url: URL): { ok: true; weaknesses: WeaknessFlag[] } | { ok: false; message: string } {
  const parsed = WeaknessesParamSchema.safeParse(url.searchParams.get('weaknesses') ?? '');
  if (parsed.success) return { ok: true, weaknesses: [...new Set(parsed.data)].sort() };
  return {
    ok: false,
    message: `query parameter 'weaknesses' must be a comma-separated list of ${WEAKNESS_FLAGS.join(', ')}; got '${url.searchParams.get('weaknesses')}'`,
  };
}
