// useSearchParams, but an update builds on the one before it even when
// both come before the next render. React Router's functional form hands
// each updater the params of the last render (remix-run/react-router
// #9757, #14491), so two quick changes — a filter and then another —
// kept only the second.

import { useCallback, useEffect, useRef } from 'react';
import { createSearchParams, useSearchParams, type SetURLSearchParams } from 'react-router';

export function useLatestSearchParams(): [URLSearchParams, SetURLSearchParams] {
  const [sp, setSp] = useSearchParams();
  // What the last update asked for, until a render shows it.
  const pending = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    pending.current = null;
  }, [sp]);
  const set = useCallback<SetURLSearchParams>(
    (nextInit, options) => {
      setSp((prev) => {
        const base = new URLSearchParams(pending.current ?? prev);
        const next = createSearchParams(typeof nextInit === 'function' ? nextInit(base) : nextInit);
        pending.current = next;
        return next;
      }, options);
    },
    [setSp],
  );
  return [sp, set];
}
