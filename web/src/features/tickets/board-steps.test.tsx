// The board draws a long column in steps (issue 23): the first cards at once,
// then the rest, until every card is drawn; a short column at once.

import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useStepped } from './routes/TicketBoard';

describe('useStepped', () => {
  it('draws a long column in steps until every card is drawn', async () => {
    const seen: number[] = [];
    const { result } = renderHook(() => {
      const n = useStepped(300);
      seen.push(n);
      return n;
    });
    expect(seen[0]).toBe(20);
    await waitFor(() => expect(result.current).toBe(300));
    expect(new Set(seen).size).toBeGreaterThan(2);
  });

  it('draws a short column at once, and follows a column that grows', async () => {
    const { result, rerender } = renderHook(({ total }) => useStepped(total), { initialProps: { total: 3 } });
    expect(result.current).toBe(3);
    rerender({ total: 90 });
    await waitFor(() => expect(result.current).toBe(90));
  });
});
