/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { splitStrings } from './src/locales/parts.ts';
import { amplifyRenderedOnly } from './vite-amplify.ts';

// One id per build: the commit (when there is one) plus the build time. The
// bundle carries it and version.json publishes it, so a running app can tell
// that a newer build was deployed (the "new version available" notice).
function buildId(): string {
  let commit = 'nogit';
  try {
    commit = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    // not a git checkout
  }
  return `${commit}-${Date.now().toString(36)}`;
}

const BUILD_ID = buildId();
const BUILT_AT = new Date().toISOString();

function versionFile(): Plugin {
  return {
    name: 'oficina-version-file',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: JSON.stringify({ build: BUILD_ID, built_at: BUILT_AT }) + '\n',
      });
    },
  };
}

const I18N_MODULE = fileURLToPath(new URL('./src/lib/i18n.ts', import.meta.url));

/** featureArea names the area of a module under src/features/<area>/ (tests and locale files aside). */
export function featureArea(id: string): string | null {
  const m = /\/src\/features\/([^/]+)\/(?:[^?]*\/)?[^/?]+\.tsx?(?:\?.*)?$/.exec(id);
  if (!m || /\.test\.tsx?(\?|$)/.test(id)) return null;
  return m[1]!;
}

// Strings per feature (src/lib/i18n.ts): every module of a feature starts
// loading that feature's locale file in the current language as it is
// imported (one line before its own code, so its line numbers stay), and
// the lazy screens and panels resolve through withStrings once it is in. So
// no feature's strings load before its code, and no screen renders before
// its strings. (Not a top-level await: that makes Rolldown split the shared
// code into many more chunks.) The unit tests get every string up front.
function featureStrings(): Plugin {
  return {
    name: 'oficina-feature-strings',
    apply: () => !process.env.VITEST,
    transform(code, id) {
      const area = featureArea(id);
      if (!area) return null;
      const prelude = `import { ensureStrings as __oficinaStrings } from ${JSON.stringify(I18N_MODULE)}; __oficinaStrings(${JSON.stringify(area)}); `;
      return { code: prelude + code, map: null };
    },
  };
}

// The shared locale files load in two parts (src/locales/parts.ts):
// `locales/<lang>.json?strings=start` is every section but APP_SECTIONS,
// `?strings=app` those sections.
function sharedStringsParts(): Plugin {
  return {
    name: 'oficina-shared-strings-parts',
    enforce: 'pre',
    load(id) {
      const m = /^(.*[\\/]src[\\/]locales[\\/][^\\/]+\.json)\?strings=(start|app)$/.exec(id);
      if (!m) return null;
      this.addWatchFile(m[1]!);
      const part = splitStrings(JSON.parse(readFileSync(m[1]!, 'utf8')))[m[2] as 'start' | 'app'];
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(part))});\n`;
    },
  };
}

// Vite lists, at each lazy import, the chunks to preload with it; those the
// importing chunk imports statically are loaded already by then (the route
// table's list would repeat the entry's own chunks at every route).
const staticClosures = new Map<string, Set<string>>();
function staticImportClosures(): Plugin {
  return {
    name: 'oficina-static-import-closures',
    apply: 'build',
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        staticClosures.clear();
        const closure = (file: string, seen: Set<string>): Set<string> => {
          const chunk = bundle[file];
          if (seen.has(file) || chunk?.type !== 'chunk') return seen;
          seen.add(file);
          for (const dep of chunk.imports) closure(dep, seen);
          return seen;
        };
        for (const file of Object.keys(bundle)) staticClosures.set(file, closure(file, new Set()));
      },
    },
  };
}

export default defineConfig(({ command }) => ({
  // Every text file also as .br (quality 11) and .gz (level 9), kept only when
  // smaller: the Go server picks one by Accept-Encoding (shared/spa), so the
  // SPA leaves it compressed without compressing on each request.
  plugins: [
    featureStrings(),
    sharedStringsParts(),
    staticImportClosures(),
    amplifyRenderedOnly(fileURLToPath(new URL('./src/amplify.css', import.meta.url)), fileURLToPath(new URL('../node_modules/@aws-amplify/ui/dist/esm/theme/tokens/components', import.meta.url))),
    react(), versionFile(), compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' })],
  define: {
    // The dev server and tests have no version.json to compare with.
    __BUILD_ID__: JSON.stringify(command === 'build' ? BUILD_ID : 'dev'),
    // The footer's release: the build's commit and day (issue 22 item 15).
    __BUILT_AT__: JSON.stringify(command === 'build' ? BUILT_AT : ''),
  },
  resolve: {
    alias:
      command === 'build'
        ? [
            // react-router's package exports only its development build; the
            // production one is the same less its development warnings.
            { find: /^react-router$/, replacement: fileURLToPath(new URL('../node_modules/react-router/dist/production/index.mjs', import.meta.url)) },
            { find: /^use-sync-external-store\/shim$/, replacement: fileURLToPath(new URL('./build-shims/use-sync-external-store-shim.ts', import.meta.url)) },
            { find: /^lodash\/kebabCase\.js$/, replacement: fileURLToPath(new URL('./build-shims/kebab-case.ts', import.meta.url)) },
          ]
        : [],
  },
  server: {
    port: 5173,
    proxy: {
      // ws: the live-updates WebSocket (/api/_live) goes through too; the Origin stays the dev server's,
      // which the Go server accepts as the request's own host (changeOrigin false keeps Host as sent).
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
    // Every browser the build targets preloads modules itself (Safari from
    // 17); an older one only loads a screen's chunks a little later.
    modulePreload: {
      polyfill: false,
      resolveDependencies: (_file, deps, { hostId }) => deps.filter((dep) => !staticClosures.get(hostId)?.has(dep)),
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    include: ['src/**/*.test.{ts,tsx}'],
    testTimeout: 15_000,
    restoreMocks: true,
  },
}));
