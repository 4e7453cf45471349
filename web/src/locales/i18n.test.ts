// Both languages carry exactly the same keys, none empty, and every key the
// code asks for with a literal exists in a file loaded with that code.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { languageStrings } from '../lib/i18n';
import sharedEn from './en.json';
import { EN as en, PT_BR as ptBR } from './eager';
import sharedPt from './pt-BR.json';
import { mergeAll, mergeTrees } from './merge';
import { APP_SECTIONS, FEATURE_SHELL, splitStrings } from './parts';

type Tree = { [k: string]: unknown };

function flatten(tree: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (Array.isArray(tree)) {
    tree.forEach((v, i) => flatten(v, `${prefix}[${i}]`).forEach((val, k) => out.set(k, val)));
  } else if (tree && typeof tree === 'object') {
    for (const [k, v] of Object.entries(tree as Tree)) {
      flatten(v, prefix ? `${prefix}.${k}` : k).forEach((val, key) => out.set(key, val));
    }
  } else {
    out.set(prefix, tree);
  }
  return out;
}

const enKeys = flatten(en);
const ptKeys = flatten(ptBR);
const ptKeysShared = flatten(sharedPt);
const featureEn = import.meta.glob('../features/*/locales/en.json', { eager: true, import: 'default' });
const featurePt = import.meta.glob('../features/*/locales/pt-BR.json', { eager: true, import: 'default' });

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}

describe('i18n resources', () => {
  it('a feature file merges into the shared tree, and a string defined twice throws', () => {
    expect(mergeAll({ a: { b: 'x' } }, { f1: { a: { c: 'y' } }, f2: { d: 'z' } })).toEqual({ a: { b: 'x', c: 'y' }, d: 'z' });
    expect(() => mergeTrees({ a: { b: 'x' } }, { a: { b: 'y' } }, 'f')).toThrow(/a\.b/);
  });

  it('en and pt-BR have exactly the same keys', () => {
    const missingInPt = [...enKeys.keys()].filter((k) => !ptKeys.has(k));
    const missingInEn = [...ptKeys.keys()].filter((k) => !enKeys.has(k));
    expect(missingInPt).toEqual([]);
    expect(missingInEn).toEqual([]);
  });

  it('no value is empty and every value is a string', () => {
    for (const [name, map] of [
      ['en', enKeys],
      ['pt-BR', ptKeys],
    ] as const) {
      const bad = [...map.entries()].filter(([, v]) => typeof v !== 'string' || v.trim() === '').map(([k]) => `${name}:${k}`);
      expect(bad).toEqual([]);
    }
  });

  it('interpolations match between the languages', () => {
    const vars = (s: unknown) => [...String(s).matchAll(/{{\s*(\w+)\s*}}|<(\w+)>/g)].map((m) => m[1] ?? m[2]).sort();
    const diff = [...enKeys.keys()].filter((k) => JSON.stringify(vars(enKeys.get(k))) !== JSON.stringify(vars(ptKeys.get(k))));
    expect(diff).toEqual([]);
  });

  it('every literal key used in the code exists where that code can count on it', () => {
    // The shared file's start part is loaded at start, its other sections
    // (locales/parts.ts) with any feature but the landing page, a feature's
    // own file only with that feature's code (lib/i18n.ts). So the shell
    // (app/, lib/, components/ but the record kit) and the landing page may
    // use only the start part (but FEATURE_SHELL, drawn only on a Group's
    // screens); a feature, the shared strings and its own.
    const src = join(__dirname, '..');
    for (const f of FEATURE_SHELL) expect(existsSync(join(src, f)), f).toBe(true);
    const shared = new Map([...flatten(sharedEn as Tree)]);
    // The shell and the landing page have only the start part of the shared strings.
    const start = flatten(splitStrings(sharedEn as Tree).start);
    const own = (area: string) => flatten((featureEn[`../features/${area}/locales/en.json`] ?? {}) as Tree);
    const has = (keys: Map<string, unknown>, k: string) => keys.has(k) || [...keys.keys()].some((e) => e.startsWith(`${k}.`) || e.startsWith(`${k}[`));
    const patterns = [/\bt\(\s*['"]([a-zA-Z0-9_.#-]+)['"]/g, /i18nKey="([^"]+)"/g, /label: '((?:nav|fields|records|profile|home)\.[a-zA-Z0-9_.-]+)'/g];
    let used = 0;
    const missing: string[] = [];
    for (const file of sourceFiles(src)) {
      const area = /[\\/]features[\\/]([^\\/]+)[\\/]/.exec(file.slice(src.length))?.[1];
      const shellOfFeatures = (FEATURE_SHELL as readonly string[]).includes(file.slice(src.length + 1).replaceAll('\\', '/'));
      const landing = area === 'home' || (!area && !shellOfFeatures && !/[\\/]components[\\/]records[\\/]/.test(file));
      const available = landing ? start : new Map([...shared, ...own(area ?? '')]);
      const text = readFileSync(file, 'utf8');
      for (const re of patterns) {
        for (const m of text.matchAll(re)) {
          used++;
          if (!has(available, m[1]!)) {
            const where = has(shared, m[1]!) ? 'in a section locales/parts.ts loads with the features' : has(enKeys, m[1]!) ? "in another feature's file" : 'nowhere';
            missing.push(`${file.slice(src.length + 1)}: ${m[1]} (${where})`);
          }
        }
      }
    }
    expect(used).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it('loads one language: the shared strings and those of the features asked for', async () => {
    const { tree, areas } = await languageStrings('pt-BR', ['tickets', 'home']);
    const keys = flatten(tree);
    expect(keys.get('common.save')).toBe('Salvar');
    expect([...areas].sort()).toEqual(['home', 'tickets']);
    const ticketKeys = [...flatten(featurePt['../features/tickets/locales/pt-BR.json'] as Tree).keys()];
    expect(ticketKeys.length).toBeGreaterThan(10);
    for (const k of ticketKeys) expect(keys.has(k), k).toBe(true);
    const financeKeys = [...flatten(featurePt['../features/finance/locales/pt-BR.json'] as Tree).keys()].filter((k) => !ptKeysShared.has(k));
    expect(financeKeys.length).toBeGreaterThan(10);
    for (const k of financeKeys) expect(keys.has(k), k).toBe(false);
    const startOnly = flatten((await languageStrings('en', [])).tree);
    expect(startOnly.size).toBe(flatten(splitStrings(sharedEn as Tree).start).size);
    expect(startOnly.has('home.hero.title')).toBe(true);
    expect(startOnly.has('records.new')).toBe(false);
  });

  it("splits the shared strings into a start part and the features' part without losing one", () => {
    for (const shared of [sharedEn, sharedPt] as Tree[]) {
      const { start, app } = splitStrings(shared);
      expect(mergeAll(start, { app })).toEqual(shared);
      for (const section of APP_SECTIONS) expect(flatten(start).has(section) || [...flatten(start).keys()].some((k) => k.startsWith(`${section}.`))).toBe(false);
    }
    // Keys the shell asks for by prefix (languages.*, modules.*, plans.*, errors.titles.*) stay at start.
    for (const prefix of ['languages', 'modules', 'plans', 'errors.titles']) expect(APP_SECTIONS.some((s) => prefix === s || prefix.startsWith(`${s}.`))).toBe(false);
  });
});
