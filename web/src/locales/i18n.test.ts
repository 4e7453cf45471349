// Both languages carry exactly the same keys, none empty, and every key the
// code asks for with a literal exists.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EN as en, PT_BR as ptBR } from './eager';
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

  it('every literal key used in the code exists', () => {
    const src = join(__dirname, '..');
    const used = new Set<string>();
    const patterns = [/\bt\(\s*['"]([a-zA-Z0-9_.#-]+)['"]/g, /i18nKey="([^"]+)"/g, /label: '((?:nav|fields|records|profile|home)\.[a-zA-Z0-9_.-]+)'/g];
    for (const file of sourceFiles(src)) {
      const text = readFileSync(file, 'utf8');
      for (const re of patterns) for (const m of text.matchAll(re)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(100);
    const missing = [...used].filter((k) => !enKeys.has(k) && ![...enKeys.keys()].some((e) => e.startsWith(`${k}.`) || e.startsWith(`${k}[`)));
    expect(missing).toEqual([]);
  });
});
