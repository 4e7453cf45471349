#!/usr/bin/env node
// Prints the gzipped size of the JavaScript the first route (/) loads and
// fails above the budget (200 KB). From Vite's manifest:
//   entry    = the entry chunk and its static imports, transitively;
//   route /  = entry + the home screen's lazy chunk and its static imports
//              + the larger of the two locale chunks (one is fetched at start).
// Both must stay within the budget. Run after `npm run build`.

import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET = 200 * 1024;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');

if (!existsSync(manifestPath)) {
  console.error(`size: ${manifestPath} not found; run "npm run build" first`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

function closure(keys) {
  const seen = new Set();
  const stack = [...keys];
  while (stack.length) {
    const k = stack.pop();
    if (seen.has(k)) continue;
    const chunk = manifest[k];
    if (!chunk) throw new Error(`size: manifest has no chunk ${k}`);
    seen.add(k);
    for (const dep of chunk.imports ?? []) stack.push(dep);
  }
  return seen;
}

const gz = new Map();
function gzipped(k) {
  if (!gz.has(k)) gz.set(k, gzipSync(readFileSync(join(dist, manifest[k].file)), { level: 9 }).length);
  return gz.get(k);
}
const sum = (keys) => [...keys].reduce((n, k) => n + gzipped(k), 0);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const find = (suffix) => Object.keys(manifest).find((k) => k.endsWith(suffix));

const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
if (entries.length !== 1) {
  console.error(`size: expected one entry chunk, found ${entries.length}`);
  process.exit(2);
}
const entry = closure(entries);

const home = find('src/features/home/routes/Home.tsx');
const locales = ['src/locales/en.json', 'src/locales/pt-BR.json'].map(find).filter(Boolean);
if (!home || locales.length !== 2) {
  console.error('size: the home route or a locale chunk is missing from the manifest');
  process.exit(2);
}
const route = new Set([...entry, ...closure([home])]);
const biggestLocale = locales.reduce((a, b) => (gzipped(a) >= gzipped(b) ? a : b));
route.add(biggestLocale);

const entrySize = sum(entry);
const routeSize = sum(route);

console.log('JS loaded by the first route (/), gzipped:');
for (const k of [...route].sort((a, b) => gzipped(b) - gzipped(a))) {
  const tag = entry.has(k) ? 'entry' : k === biggestLocale ? 'locale' : 'home';
  console.log(`  ${kb(gzipped(k)).padStart(9)}  ${tag.padEnd(6)} ${manifest[k].file}`);
}
console.log(`entry chunk + static imports: ${kb(entrySize)}`);
console.log(`first route (/) in all:       ${kb(routeSize)}  (budget ${kb(BUDGET)})`);

if (entrySize > BUDGET || routeSize > BUDGET) {
  console.error(`size: over budget by ${kb(Math.max(entrySize, routeSize) - BUDGET)}`);
  process.exit(1);
}
console.log('size: within budget');
