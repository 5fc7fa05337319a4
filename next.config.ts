import type { NextConfig } from 'next';
import { NON_PAGE_CSP, SECURITY_HEADERS } from './lib/security/headers';

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: ['esbuild', 'graphile-worker'],
  async headers() {
    // Every response: no framing, no MIME sniffing, a referrer policy. Pages get their nonce CSP from
    // proxy.ts; everything else (API routes, static files, the icon) a CSP that allows nothing.
    const nonPage = [...SECURITY_HEADERS, { key: 'Content-Security-Policy', value: NON_PAGE_CSP }];
    return [
      { source: '/:path*', headers: [...SECURITY_HEADERS] },
      { source: '/api/:path*', headers: nonPage },
      { source: '/_next/:path*', headers: nonPage },
      { source: '/icon.svg', headers: nonPage },
      { source: '/favicon.ico', headers: nonPage },
    ];
  },
};

export default nextConfig;
