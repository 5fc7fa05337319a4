/** The top navigation, with who is signed in (their roles in the tenant they work in), the tenant switcher and a sign-out button. */
import Link from 'next/link';
import { currentPrincipal } from '@/lib/auth/authorize';
import { signOutAction } from '@/lib/actions/sign-out';
import { LargeTypeToggle } from './large-type-toggle';
import { NavLinks } from './nav-links';
import { ThemeToggle } from './theme-toggle';
import { TenantSwitcher } from './tenant-switcher';

export async function SiteHeader() {
  const user = await currentPrincipal();
  return (
    <header className="site-header">
      <nav aria-label="Main">
        <Link href="/" className="brand" prefetch={false}>
          Stockroom Harness
        </Link>
        {/* One row at 1400 px; on a phone the links and switches share one row that scrolls sideways. */}
        <div className="nav-scroll">
          {user ? <NavLinks /> : null}
          <span className="spacer" />
          <ThemeToggle />
          <LargeTypeToggle />
        </div>
        {user ? (
          // Who is signed in above the tenant switcher and sign-out, so the navigation stays one row at 1400 px.
          <div className="account">
            <span className="small" data-testid="signed-in-as">
              {user.email} · {user.roles.join(', ') || 'no role'} · {user.tenant}
            </span>
            <div className="row account-actions">
              {user.tenants.length > 1 ? <TenantSwitcher tenant={user.tenant} tenants={user.tenants} /> : null}
              <form action={signOutAction}>
                <button type="submit" className="small">
                  Sign out
                </button>
              </form>
            </div>
          </div>
        ) : null}
      </nav>
    </header>
  );
}
