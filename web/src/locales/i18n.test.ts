// Both languages carry exactly the same keys, none empty, and every key the
// code asks for with a literal exists in a file loaded with that code.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { languageStrings } from '../lib/i18n';
import sharedEn from './en.json';
import { EN as en, PT_BR as ptBR } from './eager';
import sharedPt from './pt-BR.json';
import { mergeAll, mergeTrees } from './merge';

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
    // The shared file is loaded at start; a feature's own file only with that
    // feature's code (lib/i18n.ts). So code outside features/ may use only
    // shared strings, and a feature its own and the shared ones.
    const src = join(__dirname, '..');
    const shared = new Map([...flatten(sharedEn as Tree)]);
    const own = (area: string) => flatten((featureEn[`../features/${area}/locales/en.json`] ?? {}) as Tree);
    const has = (keys: Map<string, unknown>, k: string) => keys.has(k) || [...keys.keys()].some((e) => e.startsWith(`${k}.`) || e.startsWith(`${k}[`));
    const patterns = [/\bt\(\s*['"]([a-zA-Z0-9_.#-]+)['"]/g, /i18nKey="([^"]+)"/g, /label: '((?:nav|fields|records|profile|home)\.[a-zA-Z0-9_.-]+)'/g];
    let used = 0;
    const missing: string[] = [];
    for (const file of sourceFiles(src)) {
      const area = /[\\/]features[\\/]([^\\/]+)[\\/]/.exec(file.slice(src.length))?.[1];
      const available = area ? new Map([...shared, ...own(area)]) : shared;
      const text = readFileSync(file, 'utf8');
      for (const re of patterns) {
        for (const m of text.matchAll(re)) {
          used++;
          if (!has(available, m[1]!)) missing.push(`${file.slice(src.length + 1)}: ${m[1]} (${has(enKeys, m[1]!) ? "in another feature's file" : 'nowhere'})`);
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
    expect(flatten((await languageStrings('en', [])).tree).size).toBe(flatten(sharedEn as Tree).size);
  });
});
