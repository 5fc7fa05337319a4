/** The page for an address that leads nowhere (and for a run, suite or request that does not exist). */
import Link from 'next/link';

export const metadata = { title: 'Not found · Stockroom Harness Dashboard' };

export default function NotFound() {
  return (
    <main className="page">
      <h1>Nothing here</h1>
      <p className="lede">
        This address does not lead to a page, or the run, suite or request it names does not exist (it may have been deleted).
      </p>
      <p className="row">
        <Link className="button primary" href="/">
          Go to the start page
        </Link>
        <Link className="button" href="/runs">
          See all runs
        </Link>
      </p>
    </main>
  );
}
