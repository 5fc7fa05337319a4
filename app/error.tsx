'use client';
/** A page whose server render failed: "the database is unavailable, retrying", or a reference (components/server-error-notice.tsx). */
import { ServerErrorNotice } from '@/components/server-error-notice';

export default function PageError({ error }: { error: Error & { digest?: string } }) {
  return <ServerErrorNotice error={error} />;
}
