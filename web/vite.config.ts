/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { execSync } from 'node:child_process';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig(({ command }) => ({
  plugins: [react(), versionFile()],
  define: {
    // The dev server and tests have no version.json to compare with.
    __BUILD_ID__: JSON.stringify(command === 'build' ? BUILD_ID : 'dev'),
    // The footer's release: the build's commit and day (issue 22 item 15).
    __BUILT_AT__: JSON.stringify(command === 'build' ? BUILT_AT : ''),
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
