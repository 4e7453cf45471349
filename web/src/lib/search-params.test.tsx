import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useLatestSearchParams } from './search-params';

function Filters() {
  const [sp, setSp] = useLatestSearchParams();
  const set = (key: string, value: string) =>
    setSp((prev) => {
      const next = new URLSearchParams(prev);
      next.set(key, value);
      return next;
    });
  return (
    <>
      <output data-testid="params">{sp.toString()}</output>
      <button
        onClick={() => {
          // Two updates before the next render: both must stay.
          set('starred', 'all');
          set('read', 'unread');
        }}
      >
        both
      </button>
    </>
  );
}

describe('useLatestSearchParams', () => {
  it('builds each update on the one before, even within one render', async () => {
    const router = createMemoryRouter([{ path: '/', element: <Filters /> }], { initialEntries: ['/?starred=starred&page=2'] });
    render(<RouterProvider router={router} />);
    await act(async () => screen.getByText('both').click());
    expect(screen.getByTestId('params')).toHaveTextContent('starred=all&page=2&read=unread');
  });
});
