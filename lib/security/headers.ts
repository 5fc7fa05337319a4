/**
 * The browser-hardening headers every response carries. Pages get a Content-Security-Policy with a
 * fresh nonce per request (proxy.ts): Next.js reads the nonce from the request's CSP header while
 * rendering and puts it on its own scripts; anything else that renders an inline script (e.g. a theme
 * script) takes it from `x-nonce` (lib/security/nonce.ts). Other responses (API routes, static files)
 * get a CSP that allows nothing (next.config.ts). No 'unsafe-eval' outside development, where React
 * needs it for its debugging stacks.
 */

/** The request header proxy.ts hands the nonce to server components in. */
export const NONCE_HEADER = 'x-nonce';

/**
 * The page CSP. Styles allow inline (React's style attributes, recharts' SVG, mermaid's generated
 * `<style>`): style injection cannot run code, and a nonce there would disable 'unsafe-inline'.
 */
export function pageCsp(nonce: string, opts: { dev: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    // A tool's audio result plays from the stored run (a data: URL), never from elsewhere.
    "media-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The CSP of responses that are not pages: nothing may load, nothing may frame them. */
export const NON_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Sent on every response (next.config.ts), pages included. */
export const SECURITY_HEADERS: readonly { key: string; value: string }[] = [
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
];

/** A fresh, unguessable nonce (128 bits, base64). */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
