'use client';
/**
 * The root layout itself failed (its header reads the session from the database): the same notice
 * as app/error.tsx, in a document of its own since the layout is gone.
 */
import { ServerErrorNotice } from '@/components/server-error-notice';
import './globals.css';

export default function GlobalError({ error }: { error: Error & { digest?: string } }) {
  return (
    <html lang="en">
      <body>
        <ServerErrorNotice error={error} />
      </body>
    </html>
  );
}
