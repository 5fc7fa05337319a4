'use client';
/**
 * The header's tenant switcher for users with memberships in several tenants. The choice is stored
 * by a server action (a cookie the server re-validates against the memberships on every request);
 * after it, the pages reload with the chosen tenant's data.
 */
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { chooseTenantAction } from '@/lib/actions/choose-tenant';

export function TenantSwitcher({ tenant, tenants }: { tenant: string; tenants: string[] }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <label className="small row" style={{ gap: '0.25rem' }}>
      <span className="visually-hidden">Tenant</span>
      <select
        aria-label="Tenant"
        data-testid="tenant-switcher"
        value={tenant}
        disabled={pending}
        onChange={(e) => {
          const next = e.target.value;
          start(async () => {
            const res = await chooseTenantAction({ tenant: next });
            setError(res.ok ? null : res.error);
            if (res.ok) router.refresh();
          });
        }}
      >
        {tenants.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      {error ? <span role="alert">{error}</span> : null}
    </label>
  );
}
