// Light/dark theme (SPEC §4): kept in local storage; choosing light removes
// the key, so light is the default.

import { ThemeProvider, createTheme, defaultDarkModeOverride } from '@aws-amplify/ui-react';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { KEYS, readStored, writeStored } from './storage';

export type ColorMode = 'light' | 'dark';

export function readColorMode(): ColorMode {
  return readStored(KEYS.theme) === 'dark' ? 'dark' : 'light';
}

export function storeColorMode(mode: ColorMode): void {
  writeStored(KEYS.theme, mode === 'dark' ? 'dark' : null);
}

export const oficinaTheme = createTheme({
  name: 'oficina',
  tokens: {
    colors: {
      brand: {
        primary: {
          10: { value: '#e6f6f8' },
          20: { value: '#c0e8ee' },
          40: { value: '#7fcfdb' },
          60: { value: '#239fb3' },
          80: { value: '#047d95' },
          90: { value: '#035e70' },
          100: { value: '#023f4b' },
        },
      },
    },
    fonts: {
      default: {
        variable: { value: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
        static: { value: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
      },
    },
  },
  overrides: [defaultDarkModeOverride],
});

interface ThemeModeValue {
  mode: ColorMode;
  setMode: (m: ColorMode) => void;
  toggle: () => void;
}

const ThemeModeContext = createContext<ThemeModeValue>({ mode: 'light', setMode: () => {}, toggle: () => {} });

export function ThemeModeProvider({ children, initial }: { children: ReactNode; initial?: ColorMode }) {
  const [mode, setModeState] = useState<ColorMode>(initial ?? readColorMode);
  const setMode = useCallback((m: ColorMode) => {
    storeColorMode(m);
    setModeState(m);
  }, []);
  const toggle = useCallback(() => setMode(mode === 'dark' ? 'light' : 'dark'), [mode, setMode]);
  useEffect(() => {
    document.documentElement.dataset.colorMode = mode;
    // The theme's tokens reach what renders outside its div (amplify.css).
    document.documentElement.dataset.amplifyTheme = oficinaTheme.name;
    document.documentElement.dataset.amplifyColorMode = mode;
    document.documentElement.style.colorScheme = mode;
  }, [mode]);
  const value = useMemo(() => ({ mode, setMode, toggle }), [mode, setMode, toggle]);
  return (
    <ThemeModeContext.Provider value={value}>
      <ThemeProvider theme={oficinaTheme} colorMode={mode}>
        {children}
      </ThemeProvider>
    </ThemeModeContext.Provider>
  );
}

export function useThemeMode(): ThemeModeValue {
  return useContext(ThemeModeContext);
}
