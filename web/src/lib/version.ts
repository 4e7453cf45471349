// "New version available" (SPEC §2): the build writes version.json with the
// id baked into this bundle; a different id on the server means a new release.

import { useEffect, useState } from 'react';


export const BUILD_ID: string = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';
/** When this bundle was built (ISO), or '' in development and tests. */
export const BUILT_AT: string = typeof __BUILT_AT__ === 'string' ? __BUILT_AT__ : '';

/** release names this build for the footer: its commit and the day it was built; null in development. */
export function release(buildId: string = BUILD_ID, builtAt: string = BUILT_AT): { version: string; date: string } | null {
  if (buildId === 'dev' || !builtAt) return null;
  return { version: buildId.split('-')[0] ?? buildId, date: builtAt.slice(0, 10) };
}
export const VERSION_URL = '/version.json';
export const VERSION_POLL_MS = 5 * 60_000;

export async function fetchDeployedBuild(fetcher: typeof fetch = fetch): Promise<string | null> {
  try {
    const res = await fetcher(`${VERSION_URL}?t=${Date.now()}`, { cache: 'no-store', credentials: 'omit' });
    if (!res.ok) return null;
    const body = (await res.json()) as { build?: unknown };
    return typeof body.build === 'string' ? body.build : null;
  } catch {
    return null;
  }
}

/** useNewVersion polls every 5 minutes and when the tab becomes visible again. */
export function useNewVersion(current: string = BUILD_ID, pollMs: number = VERSION_POLL_MS): boolean {
  const [stale, setStale] = useState(false);
  useEffect(() => {
    if (current === 'dev') return;
    let cancelled = false;
    const check = async () => {
      const deployed = await fetchDeployedBuild();
      if (!cancelled && deployed && deployed !== current) setStale(true);
    };
    const timer = window.setInterval(check, pollMs);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    document.addEventListener('visibilitychange', onVisible);
    void check();
    return () => {
      cancelled = true;
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [current, pollMs]);
  return stale;
}
