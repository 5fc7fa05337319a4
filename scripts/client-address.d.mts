/** Types for scripts/client-address.mjs. */
export const CLIENT_ADDRESS_HEADER: string;
export function parseTrustProxy(raw: string | undefined): boolean;
type NodeRequestLike = { headers: Record<string, string | string[] | undefined>; socket: { remoteAddress?: string } };
export function clientAddressOf(req: NodeRequestLike, trustProxy: boolean): string;
export function stampClientAddress(req: NodeRequestLike, trustProxy: boolean): string;
