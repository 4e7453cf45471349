import * as path from 'node:path';

/** The repository root (infra-cdk/ is one level below it). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/**
 * The single DynamoDB table's definition, shared with the Go store
 * (shared/store/dynamo reads the same file), so the cloud table and the
 * one the Go tests create can never drift apart.
 */
export const TABLE_DEFINITION_FILE = path.join(REPO_ROOT, 'shared', 'store', 'dynamo', 'table.json');

/** Where `make lambdas` leaves build/lambda/<name>.zip. */
export const DEFAULT_LAMBDA_DIR = path.join(REPO_ROOT, 'build', 'lambda');

/** Where the Vite build of web/ lands. */
export const DEFAULT_WEB_DIR = path.join(REPO_ROOT, 'web', 'dist');

/**
 * The jobs the Go modules register (name, EventBridge schedule), written and
 * checked by `go test ./functions/schedule -run TestJobsFile`: one rule each.
 */
export const SCHEDULED_JOBS_FILE = path.join(REPO_ROOT, 'functions', 'schedule', 'jobs.json');

/** The Go Lambda functions this stack deploys: functions/<name> → build/lambda/<name>.zip. */
export const LAMBDA_FUNCTIONS = ['api', 'stream', 'schedule', 'worker', 'live'] as const;
export type LambdaFunctionName = (typeof LAMBDA_FUNCTIONS)[number];

/** The zip `make lambdas` builds for a function. */
export function lambdaZip(lambdaDir: string, name: LambdaFunctionName): string {
  return path.join(lambdaDir, `${name}.zip`);
}
