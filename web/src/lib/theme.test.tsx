import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { KEYS } from './storage';
import { readColorMode, ThemeModeProvider, useThemeMode } from './theme';

function Probe() {
  const { mode, toggle } = useThemeMode();
  return (
    <button type="button" onClick={toggle}>
      {mode}
    </button>
  );
}

describe('theme', () => {
  it('defaults to light, stores dark, and light removes the key', () => {
    expect(readColorMode()).toBe('light');
    render(
      <ThemeModeProvider>
        <Probe />
      </ThemeModeProvider>,
    );
    const btn = screen.getByRole('button');
    expect(btn).toHaveTextContent('light');
    act(() => btn.click());
    expect(btn).toHaveTextContent('dark');
    expect(window.localStorage.getItem(KEYS.theme)).toBe('dark');
    expect(document.querySelector('[data-amplify-color-mode="dark"]')).not.toBeNull();
    act(() => btn.click());
    expect(btn).toHaveTextContent('light');
    expect(window.localStorage.getItem(KEYS.theme)).toBeNull();
  });

  it('reads a stored dark theme', () => {
    window.localStorage.setItem(KEYS.theme, 'dark');
    expect(readColorMode()).toBe('dark');
  });
});
