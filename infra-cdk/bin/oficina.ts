#!/usr/bin/env node
/**
 * The CDK app: one Oficina stack per stage, "Oficina-dev" or "Oficina-prod".
 *
 *   npx cdk synth                               # dev, needs build/lambda/*.zip and web/dist
 *   npx cdk deploy -c stage=prod -c mailFrom=… # see infra-cdk/README.md for every key
 *   npx cdk synth -c placeholderAssets=true     # no builds needed; never deploy that
 *
 * Environment-agnostic: the account and region come from the credentials at
 * deploy time, and nothing is looked up at synth time.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { ConfigError, configFromContext } from '../lib/config';
import { OficinaStack } from '../lib/oficina-stack';
import { DEFAULT_LAMBDA_DIR, DEFAULT_WEB_DIR, LAMBDA_FUNCTIONS, lambdaZip, REPO_ROOT } from '../lib/paths';
import { type AssetDirs, writePlaceholderAssets } from '../lib/placeholder-assets';

function assetDirs(app: App): AssetDirs {
  const placeholders = String(app.node.tryGetContext('placeholderAssets') ?? 'false') === 'true';
  if (placeholders) {
    console.warn('oficina: synthesising with PLACEHOLDER code and web assets; do not deploy this template');
    return writePlaceholderAssets(path.join(os.tmpdir(), 'oficina-cdk-placeholder-assets'));
  }
  // Relative directories given with -c are relative to the repository root.
  const lambdaDir = path.resolve(REPO_ROOT, String(app.node.tryGetContext('lambdaDir') ?? DEFAULT_LAMBDA_DIR));
  const webDir = path.resolve(REPO_ROOT, String(app.node.tryGetContext('webDir') ?? DEFAULT_WEB_DIR));
  const missing = [
    ...LAMBDA_FUNCTIONS.map((n) => lambdaZip(lambdaDir, n)).filter((f) => !fs.existsSync(f)),
    ...(fs.existsSync(path.join(webDir, 'index.html')) ? [] : [path.join(webDir, 'index.html')]),
  ];
  if (missing.length > 0) {
    throw new Error(
      `missing build output:\n  ${missing.join('\n  ')}\n` +
        'Run `make lambdas` (and build the web app) first, or synth with -c placeholderAssets=true to check the template only.',
    );
  }
  return { lambdaDir, webDir };
}

function main(): void {
  const app = new App();
  const config = configFromContext((key) => app.node.tryGetContext(key));
  const { lambdaDir, webDir } = assetDirs(app);
  new OficinaStack(app, `Oficina-${config.stage}`, {
    config,
    lambdaDir,
    webDir,
    description: `Oficina (${config.stage}): API, stream consumer, DynamoDB table, SPA on CloudFront, SES`,
  });
  app.synth();
}

try {
  main();
} catch (err) {
  if (err instanceof ConfigError || (err instanceof Error && err.message.startsWith('missing build output'))) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
