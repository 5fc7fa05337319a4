import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { getNonce } from '@/lib/security/nonce';
import { Providers } from '@/components/providers';
import { SiteHeader } from '@/components/site-header';
import { ScrollHints } from '@/components/scroll-hints';
import { ShortcutsDialog } from '@/components/shortcuts-dialog';
import './globals.css';

export const metadata: Metadata = {
  title: 'Stockroom Harness Dashboard',
  description: 'See what an agent did, why its harness stopped it, and how each weakness moves the metrics.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The CSP nonce proxy.ts made for this response (absent for responses the proxy does not see).
  const nonce = await getNonce();
  return (
    // next-themes sets the theme class on <html> before React hydrates (its one inline script).
    <html lang="en" suppressHydrationWarning>
      <body>
        <Providers nonce={nonce}>
          {/* The first Tab stop: past the navigation to the page itself. */}
          <a className="skip-link" href="#content" data-testid="skip-link">
            Skip to content
          </a>
          <SiteHeader />
          <div id="content" tabIndex={-1} />
          {children}
          <ShortcutsDialog />
          <ScrollHints />
        </Providers>
      </body>
    </html>
  );
}
