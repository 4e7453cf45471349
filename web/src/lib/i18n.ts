// i18next with en and pt-BR (SPEC §9: only these two). Each language's
// resources are their own chunk, loaded on demand, so the first route never
// carries both.

import i18n, { type BackendModule, type Resource, type TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { initReactI18next, useTranslation } from 'react-i18next';
import { mergeAll, type Tree } from '../locales/merge';
import { KEYS, readStored, writeStored } from './storage';

export const LOCALES = ['en', 'pt-BR'] as const;
export type AppLocale = (typeof LOCALES)[number];

/** normalizeLocale maps "pt", "pt-br", "pt_BR"… to pt-BR and "en-*" to en; anything else is null. */
export function normalizeLocale(v: unknown): AppLocale | null {
  if (typeof v !== 'string') return null;
  const l = v.trim().toLowerCase().replace('_', '-');
  if (l === 'pt' || l.startsWith('pt-')) return 'pt-BR';
  if (l === 'en' || l.startsWith('en-')) return 'en';
  return null;
}

/** browserLocale: pt-BR when the browser prefers Portuguese over English, else en (SPEC §4). */
export function browserLocale(languages: readonly string[] = navigator.languages ?? [navigator.language]): AppLocale {
  for (const l of languages) {
    const n = normalizeLocale(l);
    if (n) return n;
  }
  return 'en';
}

/** The language to start with before the session is known: a kept choice, else the browser's. */
export function initialLocale(): AppLocale {
  return normalizeLocale(readStored(KEYS.locale)) ?? browserLocale();
}

// Each language is the shared file plus every feature's own file
// (features/<area>/locales/<lang>.json), merged (locales/merge.ts).
const featureFiles: Record<AppLocale, Record<string, () => Promise<Tree>>> = {
  en: import.meta.glob<Tree>('../features/*/locales/en.json', { import: 'default' }),
  'pt-BR': import.meta.glob<Tree>('../features/*/locales/pt-BR.json', { import: 'default' }),
};

const baseFiles: Record<AppLocale, () => Promise<{ default: Tree }>> = {
  en: () => import('../locales/en.json'),
  'pt-BR': () => import('../locales/pt-BR.json'),
};

async function loadLanguage(lng: AppLocale): Promise<{ default: Tree }> {
  const files = featureFiles[lng];
  const names = Object.keys(files);
  const [base, ...features] = await Promise.all([baseFiles[lng](), ...names.map((n) => files[n]!())]);
  return { default: mergeAll(base.default, Object.fromEntries(names.map((n, i) => [n, features[i]!]))) };
}

const loaders: Record<AppLocale, () => Promise<{ default: Tree }>> = {
  en: () => loadLanguage('en'),
  'pt-BR': () => loadLanguage('pt-BR'),
};

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = loaders[language as AppLocale];
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (m) => callback(null, m.default as never),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
    );
  },
};

function syncDocumentLang(lng: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}

/**
 * initI18n starts i18next. Tests pass resources to skip the lazy backend.
 */
export async function initI18n(lng: AppLocale = initialLocale(), resources?: Resource): Promise<typeof i18n> {
  if (!resources) i18n.use(lazyBackend);
  i18n.use(initReactI18next);
  await i18n.init({
    lng,
    fallbackLng: 'en',
    supportedLngs: [...LOCALES],
    load: 'currentOnly',
    ns: ['translation'],
    defaultNS: 'translation',
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: true },
    ...(resources ? { resources } : {}),
  });
  syncDocumentLang(i18n.language);
  i18n.on('languageChanged', syncDocumentLang);
  return i18n;
}

/** applyLocale switches the UI language and keeps the choice on this device. */
export async function applyLocale(lng: AppLocale): Promise<void> {
  writeStored(KEYS.locale, lng);
  if (i18n.language !== lng) await i18n.changeLanguage(lng);
}

export function currentLocale(): AppLocale {
  return normalizeLocale(i18n.language) ?? 'en';
}

export { i18n };

/**
 * useTextsIn gives a t() in lng — for words written to someone else (a
 * WhatsApp message in the Group's language, whatever the screen's), loading
 * that language first; the screen's t() until it has loaded.
 */
export function useTextsIn(lng: AppLocale): TFunction {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<string | null>(null);
  const ready = loaded === lng || i18n.hasResourceBundle(lng, 'translation');
  useEffect(() => {
    if (ready) return;
    let live = true;
    void i18n.loadLanguages(lng).then(() => {
      if (live) setLoaded(lng);
    });
    return () => {
      live = false;
    };
  }, [lng, ready]);
  return ready ? i18n.getFixedT(lng) : t;
}
