/** The top navigation. */
import Link from 'next/link';
import { LargeTypeToggle } from './large-type-toggle';

export function SiteHeader() {
  return (
    <header className="site-header">
      <nav aria-label="Main">
        <Link href="/" className="brand">
          Stockroom Harness
        </Link>
        <Link href="/runs">Runs</Link>
        <Link href="/matrix">Weakness matrix</Link>
        <Link href="/instructor">Instructor mode</Link>
        <Link href="/compare">Compare</Link>
        <span className="spacer" />
        <LargeTypeToggle />
      </nav>
    </header>
  );
}
