import { Duration, IgnoreMode, RemovalPolicy } from 'aws-cdk-lib';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Stage } from './config';
import { FUNCTION_LOGGING } from './go-function';
import { REPO_ROOT } from './paths';

/** functions/webdav's image, built from the repository root. */
export const WEBDAV_DOCKERFILE = 'functions/webdav/Dockerfile';

/**
 * What of the repository the image's build does not see (.dockerignore
 * syntax): everything but the Go module (go.mod, go.sum, shared/,
 * functions/webdav), so the asset's hash moves with the server's code, not
 * the web app's. No "!" re-inclusions: with one, CDK walks every ignored
 * directory (node_modules) to fingerprint the asset.
 */
export const WEBDAV_IMAGE_EXCLUDE = [
  '.git',
  '.gitignore',
  '.ci',
  'node_modules',
  'web',
  'infra-cdk',
  'localstack',
  'events',
  'notes',
  'bin',
  'build',
  'data',
  'test-results',
  '*.test',
  '*.md',
  'docs',
  '*.pb.gz',
  'Makefile',
  'package.json',
  'package-lock.json',
  'functions/api',
  'functions/internal',
  'functions/local',
  'functions/schedule',
  'functions/stream',
  'functions/worker',
  'functions/live',
];

/** The port the server listens on and the Lambda Web Adapter forwards to. */
export const WEBDAV_PORT = '8080';

/** Lambda's synchronous request limit: larger PUTs need Fargate or App Runner (README). */
export const LAMBDA_REQUEST_LIMIT_BYTES = 6 * 1024 * 1024;

/**
 * The largest file the function takes in one PUT (OFICINA_DAV_MAX_PUT):
 * a binary body reaches it base64-encoded (4/3 of its size) inside
 * Lambda's request payload, with room left for the headers. Larger PUTs
 * get the server's 413, which names this limit and App Runner / Fargate;
 * bodies Lambda itself cannot take get Lambda's own 413.
 */
export const WEBDAV_MAX_PUT_BYTES = 4 * 1024 * 1024;

/** Lambda's limit on a streamed response (Function URL, RESPONSE_STREAM). */
export const LAMBDA_STREAMED_RESPONSE_LIMIT_BYTES = 200_000_000;

/**
 * GETs of files larger than this (OFICINA_DAV_REDIRECT_ABOVE) answer 302
 * to a presigned S3 GET: the streamed response limit, less room for the
 * answer's headers.
 */
export const WEBDAV_REDIRECT_ABOVE_BYTES = LAMBDA_STREAMED_RESPONSE_LIMIT_BYTES - 1024 * 1024;

export const WEBDAV_MEMORY_MB = 1024;
export const WEBDAV_TIMEOUT = Duration.minutes(5);

export interface WebDavProps {
  readonly stage: Stage;
  /** The image's build context (default: the repository root). */
  readonly imageContext?: string;
  /** The product's settings (store, blobs, base URL), as the API has them. */
  readonly environment: Record<string, string>;
  /** Reserved concurrency (undefined: none). */
  readonly reservedConcurrentExecutions?: number;
}

/**
 * The drive over WebDAV (functions/webdav, shared/dav): a container-image
 * Lambda (linux/arm64) running the Go server behind the AWS Lambda Web
 * Adapter, reached at its own HTTPS Function URL. Clients authenticate
 * with Basic auth (e-mail and API token) in the server itself, so the URL's
 * auth type is NONE. Answers stream (RESPONSE_STREAM), so downloads are
 * not cut at 6 MB (files over the streamed limit are redirected to S3);
 * request bodies are, by Lambda: the server refuses a PUT over
 * WEBDAV_MAX_PUT_BYTES with a 413 that names the limit and the way round
 * it (the same image on Fargate or App Runner). Callers all come from the
 * adapter on loopback; the server reads each one's address from the
 * request context the adapter forwards (Lambda sets
 * AWS_LAMBDA_FUNCTION_NAME, which tells it it runs there).
 *
 * Like GoFunction: its own log group with a retention and its own role
 * that may write to it only; the stack grants the table and the bucket.
 */
export class WebDav extends Construct {
  readonly fn: lambda.DockerImageFunction;
  readonly url: lambda.FunctionUrl;
  readonly logGroup: logs.LogGroup;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: WebDavProps) {
    super(scope, id);
    const prod = props.stage === 'prod';
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: prod ? logs.RetentionDays.THREE_MONTHS : logs.RetentionDays.TWO_WEEKS,
      removalPolicy: prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'functions/webdav',
    });
    this.logGroup.grantWrite(this.role);
    this.fn = new lambda.DockerImageFunction(this, 'Function', {
      description: 'Oficina drive over WebDAV (functions/webdav, container image with the Lambda Web Adapter)',
      code: lambda.DockerImageCode.fromImageAsset(props.imageContext ?? REPO_ROOT, {
        file: WEBDAV_DOCKERFILE,
        platform: Platform.LINUX_ARM64,
        ignoreMode: IgnoreMode.DOCKER,
        exclude: WEBDAV_IMAGE_EXCLUDE,
      }),
      architecture: lambda.Architecture.ARM_64,
      memorySize: WEBDAV_MEMORY_MB,
      timeout: WEBDAV_TIMEOUT,
      role: this.role,
      logGroup: this.logGroup,
      ...FUNCTION_LOGGING,
      ...(props.reservedConcurrentExecutions !== undefined ? { reservedConcurrentExecutions: props.reservedConcurrentExecutions } : {}),
      environment: {
        ...props.environment,
        PORT: WEBDAV_PORT,
        AWS_LWA_PORT: WEBDAV_PORT,
        AWS_LWA_READINESS_CHECK_PATH: '/healthz',
        AWS_LWA_INVOKE_MODE: 'response_stream',
        OFICINA_DAV_MAX_PUT: String(WEBDAV_MAX_PUT_BYTES),
        OFICINA_DAV_REDIRECT_ABOVE: String(WEBDAV_REDIRECT_ABOVE_BYTES),
      },
    });
    this.url = this.fn.addFunctionUrl({
      authType: lambda.FunctionUrlAuthType.NONE,
      invokeMode: lambda.InvokeMode.RESPONSE_STREAM,
    });
  }
}
