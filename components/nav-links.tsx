'use client';
/** The main navigation links; the page one is on is marked (aria-current and an underline), including its sub-pages. */
import Link from 'next/link';
import { usePathname } from 'next/navigation';

const LINKS = [
  { href: '/runs', label: 'Runs' },
  { href: '/matrix', label: 'Weakness matrix' },
  { href: '/instructor', label: 'Instructor mode' },
  { href: '/compare', label: 'Compare' },
  { href: '/approvals', label: 'Approvals' },
  { href: '/effects', label: 'Effects' },
  { href: '/tools', label: 'Tools' },
  { href: '/judge', label: 'Judge' },
  { href: '/golden-sets', label: 'Golden sets' },
  { href: '/label-queue', label: 'Label queue' },
  { href: '/sessions', label: 'Sessions' },
] as const;

export function NavLinks() {
  const path = usePathname();
  return (
    <>
      {LINKS.map((l) => {
        const here = path === l.href || path.startsWith(`${l.href}/`);
        return (
          // No prefetch: every page load asked the server for all eleven dynamic pages at once, on two cores,
          // and the page the person clicked waited behind them (issue 43).
          <Link key={l.href} href={l.href} aria-current={here ? 'page' : undefined} prefetch={false}>
            {l.label}
          </Link>
        );
      })}
    </>
  );
}
