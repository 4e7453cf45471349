// amplify.css imports Amplify UI's styles one component at a time: every
// primitive the app imports from @aws-amplify/ui-react, and every primitive
// those render themselves, must have its stylesheet there.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = __dirname;
const PACKAGE = join(SRC, '..', '..', 'node_modules', '@aws-amplify', 'ui-react', 'dist');
const PRIMITIVES = join(PACKAGE, 'esm', 'primitives');

function files(dir: string, test: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p, test);
    return test(name) ? [p] : [];
  });
}

/** The names the app imports from @aws-amplify/ui-react. */
function importedNames(): Set<string> {
  const names = new Set<string>();
  for (const file of files(SRC, (n) => /\.tsx?$/.test(n) && !/\.test\.tsx?$/.test(n))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@aws-amplify\/ui-react'/g)) {
      for (const part of m[1]!.split(',')) {
        const name = part.replace(/\btype\b/, '').split(' as ')[0]!.trim();
        if (name) names.add(name);
      }
    }
  }
  return names;
}

/** The primitive folders the app's imports reach, through the primitives' own imports. */
function primitivesRendered(): Set<string> {
  const folders = new Set(readdirSync(PRIMITIVES));
  const start = [...importedNames()].flatMap((name) => {
    if (folders.has(name)) return [name];
    return [...folders].filter((f) => existsSync(join(PRIMITIVES, f, `${name}.mjs`)));
  });
  const seen = new Set<string>();
  const stack = [...start];
  while (stack.length) {
    const folder = stack.pop()!;
    if (seen.has(folder)) continue;
    seen.add(folder);
    for (const file of files(join(PRIMITIVES, folder), (n) => n.endsWith('.mjs'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/from '(?:\.\.\/)+([A-Z][A-Za-z]+)\//g)) {
        if (folders.has(m[1]!)) stack.push(m[1]!);
      }
    }
  }
  return seen;
}

describe('amplify.css', () => {
  it("imports the stylesheet of every Amplify primitive the app renders", () => {
    const css = readFileSync(join(SRC, 'amplify.css'), 'utf8');
    const imported = new Set([...css.matchAll(/@import '@aws-amplify\/ui-react\/styles\/([A-Za-z]+)\.css'/g)].map((m) => m[1]!));
    const rendered = [...primitivesRendered()];
    expect(rendered).toContain('Button');
    const sheets = rendered
      .map((folder) => folder[0]!.toLowerCase() + folder.slice(1))
      .filter((name) => existsSync(join(PACKAGE, 'styles', `${name}.css`)));
    expect(sheets.filter((s) => !imported.has(s)).sort()).toEqual([]);
    for (const name of imported) expect(existsSync(join(PACKAGE, 'styles', `${name}.css`)), name).toBe(true);
  });
});

describe("the build's kebabCase for Amplify UI (build-shims/kebab-case.ts)", () => {
  it("names every token of the theme as lodash's does", async () => {
    const { default: lodashKebab } = await import('lodash/kebabCase.js');
    const { default: ours } = await import('../build-shims/kebab-case');
    const { createTheme } = await import('@aws-amplify/ui');
    const { oficinaTheme } = await import('./lib/theme');
    const inputs = new Set<string>();
    const walk = (node: unknown) => {
      if (!node || typeof node !== 'object') return;
      const token = node as { path?: unknown; value?: unknown };
      if (Array.isArray(token.path) && 'value' in token) inputs.add(['amplify', ...token.path].join(' '));
      for (const [k, v] of Object.entries(node)) {
        inputs.add(k);
        if (k !== 'path') walk(v);
      }
    };
    walk(oficinaTheme.tokens);
    walk(createTheme().tokens);
    expect(inputs.size).toBeGreaterThan(1000);
    const differ = [...inputs].filter((s) => ours(s) !== lodashKebab(s));
    expect(differ).toEqual([]);
  });
});
