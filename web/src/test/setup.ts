import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { EN, PT_BR } from '../locales/eager';
import { i18n, initI18n } from '../lib/i18n';

beforeAll(async () => {
  if (!i18n.isInitialized) {
    await initI18n('en', { en: { translation: EN }, 'pt-BR': { translation: PT_BR } });
  }
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
