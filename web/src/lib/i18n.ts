// i18next with en and pt-BR (SPEC §9: only these two), loaded per language
// and per feature (below), so the first route carries one language's shared
// strings and nothing of the screens it does not open.

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

// A language's strings come in parts: the shared file (locales/<lang>.json)
// and each feature's own file (features/<area>/locales/<lang>.json), loaded
// when that feature's code is first imported: vite.config.ts makes every
// module under features/<area>/ begin with `ensureStrings('<area>')`, and the
// lazy screens and panels resolve through `withStrings`, so none renders
// before its strings. The shared file itself is loaded in two parts
// (locales/parts.ts): the shell's and the landing page's strings at start,
// and the sections only the features' screens use with the first feature
// other than the landing page's. Every part is its own chunk.

/** The area of the shared file's APP_SECTIONS (locales/parts.ts). */
const APP_PART = '@app';

/** Features whose code needs only the strings loaded at start (the landing page). */
const START_ONLY_AREAS = new Set(['home']);

const baseFiles: Record<AppLocale, () => Promise<{ default: Tree }>> = {
  en: () => import('../locales/en.json?strings=start'),
  'pt-BR': () => import('../locales/pt-BR.json?strings=start'),
};

const appParts: Record<AppLocale, () => Promise<Tree>> = {
  en: () => import('../locales/en.json?strings=app').then((m) => m.default),
  'pt-BR': () => import('../locales/pt-BR.json?strings=app').then((m) => m.default),
};

const areaFiles = import.meta.glob<Tree>('../features/*/locales/*.json', { import: 'default' });

function areaFile(area: string, lng: AppLocale): (() => Promise<Tree>) | undefined {
  return area === APP_PART ? appParts[lng] : areaFiles[`../features/${area}/locales/${lng}.json`];
}

/** The areas whose code has asked for its strings, in the order asked. */
const wantedAreas = new Set<string>();
/** One load per language and area: `${lng}/${area}` → added to i18next. */
const addedAreas = new Map<string, Promise<void>>();
/** Area loads not yet settled. */
const inFlight = new Set<Promise<void>>();
/** Set when initI18n got every string up front (the unit tests). */
let allStringsGiven = false;

/**
 * languageStrings is one language's tree: the shared file and the files of
 * the given areas (plus any area asked for while they load), merged
 * (locales/merge.ts: a string defined twice throws); `areas` says which
 * areas it holds.
 */
export async function languageStrings(lng: AppLocale, wanted: Iterable<string>): Promise<{ tree: Tree; areas: Set<string> }> {
  const base = (await baseFiles[lng]()).default;
  const trees: Record<string, Tree> = {};
  for (;;) {
    const missing = [...new Set([...wanted, ...wantedAreas])].filter((a) => !(a in trees));
    if (!missing.length) break;
    const loaded = await Promise.all(missing.map((a) => areaFile(a, lng)?.() ?? Promise.resolve({})));
    missing.forEach((a, i) => (trees[a] = loaded[i]!));
  }
  return { tree: mergeAll(base, trees), areas: new Set(Object.keys(trees)) };
}

function isAppLocale(l: string): l is AppLocale {
  return (LOCALES as readonly string[]).includes(l);
}

/**
 * ensureStrings adds an area's strings to every language i18next holds (a
 * language loaded later gets them from the backend, which reads every area
 * asked for so far). Each module of features/<area>/ awaits it as it loads.
 */
export function ensureStrings(area: string): Promise<void> {
  if (allStringsGiven) return Promise.resolve();
  if (area !== APP_PART && !START_ONLY_AREAS.has(area)) void ensureStrings(APP_PART);
  wantedAreas.add(area);
  const held = LOCALES.filter((l) => i18n.hasResourceBundle(l, 'translation'));
  const all = Promise.all(
    held.map((lng) => {
      const key = `${lng}/${area}`;
      let added = addedAreas.get(key);
      if (!added) {
        const load = areaFile(area, lng);
        added = load
          ? load().then(
              (tree) => void i18n.addResourceBundle(lng, 'translation', tree, true, false),
              (err: unknown) => {
                addedAreas.delete(key); // the next screen of the area tries again
                throw err;
              },
            )
          : Promise.resolve();
        addedAreas.set(key, added);
      }
      return added;
    }),
  ).then(() => undefined);
  inFlight.add(all);
  const settle = () => void inFlight.delete(all);
  all.then(settle, settle);
  return all;
}

/**
 * withStrings wraps a lazy import (a route's screen, a dashboard panel): it
 * resolves once the strings its modules asked for while loading are in.
 * `featureScreen` starts the shared strings the features' screens use
 * (locales/parts.ts) with the code rather than after it.
 */
export function withStrings<T>(load: () => Promise<T>, { featureScreen = false } = {}): () => Promise<T> {
  return async () => {
    if (featureScreen) void ensureStrings(APP_PART);
    const loaded = await load();
    while (inFlight.size) await Promise.all([...inFlight]);
    return loaded;
  };
}

const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    if (!isAppLocale(language)) {
      callback(null, {});
      return;
    }
    languageStrings(language, wantedAreas).then(
      ({ tree, areas }) => {
        for (const area of areas) addedAreas.set(`${language}/${area}`, Promise.resolve());
        callback(null, tree as never);
        // An area asked for in the last moments of the load is added now
        // that i18next holds the language.
        for (const area of wantedAreas) if (!areas.has(area)) void ensureStrings(area);
      },
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
  allStringsGiven = resources !== undefined;
  if (!resources) i18n.use(lazyBackend);
  i18n.use(initReactI18next);
  await i18n.init({
    lng,
    // Both languages carry every key (locales/i18n.test.ts), so a pt-BR
    // visitor never needs the English strings as a fallback.
    fallbackLng: false,
    supportedLngs: [...LOCALES],
    load: 'currentOnly',
    ns: ['translation'],
    defaultNS: 'translation',
    interpolation: { escapeValue: false },
    returnNull: false,
    // A screen that showed another area's string before that area loaded
    // (a dashboard panel's) is drawn again when the strings arrive.
    react: { useSuspense: true, bindI18nStore: 'added' },
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
