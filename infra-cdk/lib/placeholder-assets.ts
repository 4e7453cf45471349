import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeZip } from '../scripts/lambda-zip.cjs';
import { LAMBDA_FUNCTIONS, lambdaZip } from './paths';

/**
 * Placeholder code and web assets, made on the fly so the stack synthesises
 * on a fresh clone without `make lambdas` or a web build: the assertion
 * tests use them, and so does `cdk synth -c placeholderAssets=true`. Nothing
 * fake is committed. The placeholder `bootstrap` is a shell script that
 * fails every invocation, so a stack deployed with it by mistake is loudly
 * broken rather than silently wrong. The files are deterministic, so their
 * asset hashes are stable.
 */
export function placeholderBootstrap(name: string): string {
  return `#!/bin/sh\necho "oficina: placeholder code for functions/${name}; run make lambdas and deploy again" >&2\nexit 1\n`;
}

export interface AssetDirs {
  readonly lambdaDir: string;
  readonly webDir: string;
}

/** Writes placeholder zips and a placeholder SPA under dir (created if missing). */
export function writePlaceholderAssets(dir: string): AssetDirs {
  const lambdaDir = path.join(dir, 'lambda');
  const webDir = path.join(dir, 'web');
  for (const name of LAMBDA_FUNCTIONS) {
    writeZip(lambdaZip(lambdaDir, name), [{ name: 'bootstrap', data: placeholderBootstrap(name), mode: 0o755 }]);
  }
  fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Oficina (placeholder)</title>' +
      '<script type="module" src="/assets/placeholder.js"></script></head><body><div id="root"></div></body></html>\n',
  );
  fs.writeFileSync(path.join(webDir, 'assets', 'placeholder.js'), 'document.getElementById("root").textContent = "placeholder build";\n');
  return { lambdaDir, webDir };
}

/** A fresh temporary directory of placeholder assets. */
export function temporaryPlaceholderAssets(): AssetDirs {
  return writePlaceholderAssets(fs.mkdtempSync(path.join(os.tmpdir(), 'oficina-cdk-assets-')));
}
