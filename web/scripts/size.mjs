#!/usr/bin/env node
// The first route's weight as the server sends it, from Vite's manifest and
// the build's brotli copies (x.br, which the Go server and CloudFront give
// Chromium; gzip is printed beside it):
//   entry    = the entry chunk and its static imports, transitively;
//   route /  = entry + the home screen's lazy chunk and its static imports
//              + the larger of the two shared strings' start parts (one
//              is fetched at start; the rest come with the screens);
//   CSS      = the stylesheets those chunks bring.
// Budgets (issue 23, the landing page on the wire): JS ≤ 150 KB, CSS ≤ 40 KB.
// `e2e/perf.test.ts` measures the same page in Chromium. Run after
// `npm run build`.

import { existsSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const JS_BUDGET = 150 * 1024;
const CSS_BUDGET = 40 * 1024;
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

/** sent: the bytes of a file as brotli (the build's copy when there is one) and as gzip. */
const sizes = new Map();
function sent(file) {
  if (!sizes.has(file)) {
    const path = join(dist, file);
    const raw = readFileSync(path);
    const br = existsSync(`${path}.br`)
      ? readFileSync(`${path}.br`).length
      : brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    sizes.set(file, { br, gz: gzipSync(raw, { level: 9 }).length });
  }
  return sizes.get(file);
}
const sum = (files, kind) => [...files].reduce((n, f) => n + sent(f)[kind], 0);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const find = (suffix) => Object.keys(manifest).find((k) => k.endsWith(suffix));

const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
if (entries.length !== 1) {
  console.error(`size: expected one entry chunk, found ${entries.length}`);
  process.exit(2);
}
const entry = closure(entries);

const home = find('src/features/home/routes/Home.tsx');
// The shared strings' start part (lib/i18n.ts; the rest loads with the features).
const locales = ['src/locales/en.json?strings=start', 'src/locales/pt-BR.json?strings=start'].map(find).filter(Boolean);
if (!home || locales.length !== 2) {
  console.error('size: the home route or a shared locale chunk is missing from the manifest');
  process.exit(2);
}
const route = new Set([...entry, ...closure([home])]);
const biggestLocale = locales.reduce((a, b) => (sent(manifest[a].file).br >= sent(manifest[b].file).br ? a : b));
route.add(biggestLocale);

const jsOf = (keys) => new Set([...keys].map((k) => manifest[k].file));
const cssOf = (keys) => new Set([...keys].flatMap((k) => manifest[k].css ?? []));
const entryJs = jsOf(entry);
const routeJs = jsOf(route);
const routeCss = cssOf(route);

const line = (file, tag) => `  ${kb(sent(file).br).padStart(9)} ${kb(sent(file).gz).padStart(9)}  ${tag.padEnd(6)} ${file}`;
console.log('The first route (/) as sent, brotli (gzip):');
for (const k of [...route].sort((a, b) => sent(manifest[b].file).br - sent(manifest[a].file).br)) {
  console.log(line(manifest[k].file, entry.has(k) ? 'entry' : k === biggestLocale ? 'locale' : 'home'));
}
for (const f of routeCss) console.log(line(f, 'css'));
const js = sum(routeJs, 'br');
const css = sum(routeCss, 'br');
console.log(`entry chunk + static imports: ${kb(sum(entryJs, 'br'))} (${kb(sum(entryJs, 'gz'))} gzip)`);
console.log(`first route (/) JavaScript:   ${kb(js)} (${kb(sum(routeJs, 'gz'))} gzip)  budget ${kb(JS_BUDGET)}, ${JS_BUDGET - js} B left`);
console.log(`first route (/) CSS:          ${kb(css)} (${kb(sum(routeCss, 'gz'))} gzip)  budget ${kb(CSS_BUDGET)}`);

const over = [];
if (js > JS_BUDGET) over.push(`JavaScript over budget by ${kb(js - JS_BUDGET)}`);
if (css > CSS_BUDGET) over.push(`CSS over budget by ${kb(css - CSS_BUDGET)}`);
if (over.length) {
  console.error(`size: ${over.join('; ')}`);
  process.exit(1);
}
console.log('size: within budget');
