/**
 * Runs in the browser before the app's own client modules (Next's instrumentation-client convention):
 * zod is told not to probe for `new Function` before any page module builds a schema.
 */
import '@/lib/security/zod-jitless';
