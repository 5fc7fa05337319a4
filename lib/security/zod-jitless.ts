/**
 * In the browser, zod must not probe for `new Function` (its JIT for object schemas): under the page
 * CSP (no 'unsafe-eval') the probe is refused and reported as a CSP violation, though zod then falls
 * back by itself. zod probes when an object schema is built, and a page's client modules (say, one
 * importing lib/schemas/datasets) can be evaluated before the layout's providers, so this runs from
 * instrumentation-client.ts, which Next evaluates before any of the app's own client code.
 */
import { config } from 'zod/v4/core';

if (typeof window !== 'undefined') config({ jitless: true });
