/**
 * In the browser, zod must not probe for `new Function` (its JIT for object schemas): under the page
 * CSP (no 'unsafe-eval') the probe is refused and reported as a CSP violation, though zod then falls
 * back by itself. Imported first by components/providers.tsx, before any schema is parsed.
 */
import { config } from 'zod';

if (typeof window !== 'undefined') config({ jitless: true });
