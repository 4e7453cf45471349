// The index screens' state lives in the URL (shareable, back-button safe):
// page, per_page, order_by, direction and, for bookmark paging, bookmark.

import { useCallback, useMemo } from 'react';
import { useLatestSearchParams } from '../../lib/search-params';

export const PER_PAGE_OPTIONS = [10, 25, 50, 100] as const;
export type Direction = 'asc' | 'desc';

export interface IndexParams {
  page: number;
  perPage: number;
  orderBy: string;
  direction: Direction;
  bookmark: string | null;
  q: string;
}

export function parseIndexParams(
  sp: URLSearchParams,
  defaults: { perPage?: number; orderBy: string; direction?: Direction },
  allowedOrder: readonly string[],
): IndexParams {
  const page = Math.max(1, Number.parseInt(sp.get('page') ?? '1', 10) || 1);
  const per = Number.parseInt(sp.get('per_page') ?? '', 10);
  const perPage = (PER_PAGE_OPTIONS as readonly number[]).includes(per) ? per : (defaults.perPage ?? 25);
  const ob = sp.get('order_by') ?? '';
  const orderBy = allowedOrder.includes(ob) ? ob : defaults.orderBy;
  const dir = sp.get('direction');
  const direction: Direction = dir === 'asc' || dir === 'desc' ? dir : (defaults.direction ?? 'desc');
  return { page, perPage, orderBy, direction, bookmark: sp.get('bookmark'), q: sp.get('q') ?? '' };
}

/** IndexUpdate changes an index's URL parameters (null removes one). */
export type IndexUpdate = (patch: Partial<Record<'page' | 'per_page' | 'order_by' | 'direction' | 'bookmark' | 'q', string | number | null>>) => void;

export function useIndexParams(defaults: { perPage?: number; orderBy: string; direction?: Direction }, allowedOrder: readonly string[]) {
  const [sp, setSp] = useLatestSearchParams();
  const params = useMemo(() => parseIndexParams(sp, defaults, allowedOrder), [sp, defaults, allowedOrder]);
  const update = useCallback<IndexUpdate>(
    (patch) => {
      setSp((prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          if (v === null || v === undefined || v === '') next.delete(k);
          else next.set(k, String(v));
        }
        return next;
      });
    },
    [setSp],
  );
  return [params, update] as const;
}
