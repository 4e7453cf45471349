/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { execSync } from 'node:child_process';
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

export default defineConfig(({ command }) => ({
  // Every text file also as .br (quality 11) and .gz (level 9), kept only when
  // smaller: the Go server picks one by Accept-Encoding (shared/spa), so the
  // SPA leaves it compressed without compressing on each request.
  plugins: [react(), versionFile(), compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' })],
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
