// Amplify UI at build time: only the components the app renders. amplify.css
// names their stylesheets; this plugin leaves the design tokens of every
// other component out of the bundle. createTheme turns each component's
// tokens into CSS variables at start, so the tokens of components we never
// render (the authenticator, file uploaders, the AI chat, …) would cost bytes
// on the first route and work at start for nothing.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

const TOKENS = /[\\/]@aws-amplify[\\/]ui[\\/]dist[\\/]esm[\\/]theme[\\/]tokens[\\/]components[\\/]([A-Za-z]+)\.mjs$/;

const key = (name: string) => name.replace(/^_/, '').toLowerCase();

/** The stylesheets amplify.css imports, as lower-case component names. */
export function renderedComponents(amplifyCss: string): Set<string> {
  return new Set([...amplifyCss.matchAll(/@import '@aws-amplify\/ui-react\/styles\/_?([A-Za-z]+)\.css'/g)].map((m) => key(m[1]!)));
}

/**
 * unrenderedTokenFiles lists the component token files (by base name) the
 * theme can do without: those of components without a stylesheet in
 * amplify.css, unless a kept token file refers to them
 * (`{components.fieldcontrol…}`).
 */
export function unrenderedTokenFiles(amplifyCss: string, tokensDir: string): Set<string> {
  const files = readdirSync(tokensDir)
    .filter((f) => f.endsWith('.mjs') && f !== 'index.mjs')
    .map((f) => f.slice(0, -'.mjs'.length));
  const rendered = renderedComponents(amplifyCss);
  const kept = new Set(files.filter((f) => rendered.has(key(f))));
  for (let grew = true; grew; ) {
    grew = false;
    for (const f of [...kept]) {
      for (const m of readFileSync(join(tokensDir, `${f}.mjs`), 'utf8').matchAll(/components\.([a-z]+)/g)) {
        const ref = files.find((g) => key(g) === m[1]);
        if (ref && !kept.has(ref)) {
          kept.add(ref);
          grew = true;
        }
      }
    }
  }
  return new Set(files.filter((f) => !kept.has(f)));
}

/** amplifyRenderedOnly replaces the token module of each unrendered component with an empty one. */
export function amplifyRenderedOnly(amplifyCssPath: string, tokensDir: string): Plugin {
  let dropped = new Set<string>();
  return {
    name: 'oficina-amplify-rendered-only',
    apply: 'build',
    buildStart() {
      dropped = unrenderedTokenFiles(readFileSync(amplifyCssPath, 'utf8'), tokensDir);
      this.addWatchFile(amplifyCssPath);
    },
    load(id) {
      const m = TOKENS.exec(id);
      if (!m || !dropped.has(m[1]!)) return null;
      const exported = /export \{ (\w+) \}/.exec(readFileSync(id, 'utf8'))?.[1];
      return exported ? `export const ${exported} = {};\n` : null;
    },
  };
}
