/** GET JSON from one of the app's own endpoints; a non-2xx answer throws with the server's message. */
export async function fetchJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, { signal, headers: { accept: 'application/json' } });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const message = body && typeof body === 'object' && 'error' in body ? String((body as { error: unknown }).error) : res.statusText;
    throw new Error(message || `request failed (${res.status})`);
  }
  return body as T;
}
