import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import en from '../locales/en.json';
import ptBR from '../locales/pt-BR.json';
import { i18n, initI18n } from '../lib/i18n';

beforeAll(async () => {
  if (!i18n.isInitialized) {
    await initI18n('en', { en: { translation: en }, 'pt-BR': { translation: ptBR } });
  }
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
