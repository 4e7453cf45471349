// Every route carries a handle: its SPEC §2 name, who may open it, and for
// the resource sets the set it shows.

import { useMatches } from 'react-router';

export type Access = 'public' | 'user' | 'user-no-account' | 'account';

export interface RouteHandle {
  name: string;
  access: Access;
  /** The resource set (plural) of the resource-set routes. */
  set?: string;
  /** A page for someone outside the Group (a shop's customer): no app navbar or footer. */
  bare?: boolean;
}

export function isRouteHandle(h: unknown): h is RouteHandle {
  return !!h && typeof h === 'object' && typeof (h as RouteHandle).name === 'string';
}

/** useRouteHandle gives the deepest matched route's handle. */
export function useRouteHandle(): RouteHandle {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const h = matches[i]?.handle;
    if (isRouteHandle(h)) return h;
  }
  return { name: 'unknown', access: 'public' };
}

export function needsSignIn(access: Access): boolean {
  return access !== 'public';
}
