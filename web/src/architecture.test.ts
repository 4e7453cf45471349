// Architecture rules (DESIGN §7, bulletproof-react): no imports across
// features, shared code (lib, components) never imports a feature, and no
// barrel files.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = __dirname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

/** importsOf lists the relative imports of a file, resolved to src-relative paths. */
export function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec || !spec.startsWith('.')) continue;
    out.push(relative(SRC, resolve(dirname(file), spec)).split(sep).join('/'));
  }
  return out;
}

function featureOf(srcPath: string): string | null {
  const m = /^features\/([^/]+)\//.exec(srcPath);
  return m ? m[1]! : null;
}

/** violations applies the rules to one file's imports. */
export function violations(fromPath: string, imports: string[]): string[] {
  const from = featureOf(fromPath);
  const shared = fromPath.startsWith('lib/') || fromPath.startsWith('components/');
  const out: string[] = [];
  for (const target of imports) {
    const to = featureOf(`${target}/`) ?? featureOf(target);
    if (!to) continue;
    if (from && to !== from) out.push(`${fromPath} imports features/${to} (${target})`);
    if (shared) out.push(`${fromPath} (shared) imports features/${to} (${target})`);
  }
  return out;
}

describe('architecture', () => {
  const all = files(SRC).map((f) => ({ file: f, path: relative(SRC, f).split(sep).join('/') }));

  it('the rule catches a cross-feature import', () => {
    expect(violations('features/auth/routes/Login.tsx', ['features/profile/api/update-profile'])).toHaveLength(1);
    expect(violations('features/auth/routes/Login.tsx', ['features/auth/api/login', 'lib/api'])).toEqual([]);
    expect(violations('lib/session.ts', ['features/auth/api/login'])).toHaveLength(1);
    expect(violations('app/router.tsx', ['features/auth/routes/Login'])).toEqual([]);
    expect(importsOf(join(SRC, 'features/a/routes/X.tsx'), "import { x } from '../../b/api/y';\nconst L = () => import('../../c/routes/Z');")).toEqual([
      'features/b/api/y',
      'features/c/routes/Z',
    ]);
  });

  it('no feature imports another feature, and lib/components import none', () => {
    const found = all.filter((f) => !f.path.endsWith('.test.ts') && !f.path.endsWith('.test.tsx')).flatMap((f) => violations(f.path, importsOf(f.file)));
    expect(found).toEqual([]);
  });

  it('has no barrel files', () => {
    const barrels = all.filter((f) => /(^|\/)index\.tsx?$/.test(f.path)).map((f) => f.path);
    expect(barrels).toEqual([]);
  });

  it('features keep the api/components/routes layout', () => {
    const odd = all
      .map((f) => f.path)
      .filter((p) => p.startsWith('features/'))
      .filter((p) => !/^features\/[^/]+\/((api|components|routes)\/[^/]+|[^/]+\.tsx?)$/.test(p));
    expect(odd).toEqual([]);
  });
});
