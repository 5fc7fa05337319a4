/**
 * Accounts and a tenant's outside connections (floor db/auth, on db/core): users and their roles, the
 * sign-in throttle, MCP OAuth credentials and tool server listings, webhook endpoints and their deliveries.
 *
 * The area's entry: lib/ code outside lib/db/auth imports it only from here (lib/import-graph.test.ts).
 */
export { tenantOAuthProvider } from './mcp-oauth';
export { consumeSignInAttempt, pruneSignInThrottle, type ThrottleRule } from './sign-in-throttle';
export { deliveryToSend, endpointsForEvent, eventRecorded, recordAttempt, recordDeliveries } from './webhooks';
