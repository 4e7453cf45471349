/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

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

function versionFile(): Plugin {
  return {
    name: 'oficina-version-file',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: JSON.stringify({ build: BUILD_ID, built_at: new Date().toISOString() }) + '\n',
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

export default defineConfig(({ command }) => ({
  // Every text file also as .br (quality 11) and .gz (level 9), kept only when
  // smaller: the Go server picks one by Accept-Encoding (shared/spa), so the
  // SPA leaves it compressed without compressing on each request.
  plugins: [featureStrings(), react(), versionFile(), compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' })],
  define: {
    // The dev server and tests have no version.json to compare with.
    __BUILD_ID__: JSON.stringify(command === 'build' ? BUILD_ID : 'dev'),
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
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
