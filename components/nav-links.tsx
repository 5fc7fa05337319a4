'use client';
/**
 * The main navigation links; the page one is on is marked (aria-current and an underline), including its
 * sub-pages. The five pages a class works in are always shown; the rest sit behind "More" on wide screens,
 * so the header keeps one row at 1280 px (in large type too), and on a phone every link is in the row that
 * scrolls sideways.
 */
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';

const PRIMARY = [
  { href: '/runs', label: 'Runs' },
  { href: '/matrix', label: 'Weakness matrix' },
  { href: '/instructor', label: 'Instructor mode' },
  { href: '/compare', label: 'Compare' },
  { href: '/approvals', label: 'Approvals' },
] as const;

const MORE = [
  { href: '/effects', label: 'Effects' },
  { href: '/golden-sets', label: 'Golden sets' },
  { href: '/label-queue', label: 'Label queue' },
  { href: '/sessions', label: 'Sessions' },
  { href: '/tools', label: 'Tools' },
  { href: '/judge', label: 'Judge' },
  { href: '/webhooks', label: 'Webhooks' },
  { href: '/evaluators', label: 'Evaluators' },
  { href: '/trends', label: 'Trends' },
  { href: '/alerts', label: 'Alerts' },
] as const;

const isHere = (path: string, href: string) => path === href || path.startsWith(`${href}/`);

function NavLink({ href, label, path, onClick }: { href: string; label: string; path: string; onClick?: () => void }) {
  return (
    // No prefetch: every page load asked the server for each dynamic page linked here at once, on two
    // cores, and the page the person clicked waited behind them (issue 43).
    <Link href={href} aria-current={isHere(path, href) ? 'page' : undefined} prefetch={false} onClick={onClick}>
      {label}
    </Link>
  );
}

export function NavLinks() {
  const path = usePathname();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const moreHere = MORE.some((l) => isHere(path, l.href));
  // Closes on Escape and on a click outside, like any menu.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    const onClick = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('mousedown', onClick);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('mousedown', onClick);
    };
  }, [open]);
  return (
    <>
      {PRIMARY.map((l) => (
        <NavLink key={l.href} {...l} path={path} />
      ))}
      <div className="nav-more" ref={box} data-open={open ? 'true' : undefined}>
        <button type="button" className="nav-more-toggle" aria-expanded={open} aria-controls="nav-more-list" onClick={() => setOpen((o) => !o)} aria-current={moreHere ? 'page' : undefined}>
          More <span aria-hidden="true">▾</span>
        </button>
        <div id="nav-more-list" className="nav-more-list">
          {MORE.map((l) => (
            <NavLink key={l.href} {...l} path={path} onClick={() => setOpen(false)} />
          ))}
        </div>
      </div>
    </>
  );
}
