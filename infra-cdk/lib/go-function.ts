import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Stage } from './config';
import { type LambdaFunctionName, lambdaZip } from './paths';

/**
 * How every function logs (GoFunction and the WebDAV image): in Lambda's JSON format, with Lambda's own lines
 * below WARN kept out — START, END and REPORT, three log events on every invocation, about 340 bytes as
 * CloudWatch bills them, which were the functions' whole log for a normal request (their own code writes
 * nothing for one: functions/internal/coldstart's log-bytes-per-event). Duration, errors, throttles and
 * concurrency stay in CloudWatch's Lambda metrics; to see REPORT's memory figures again, set systemLogLevelV2
 * to INFO here. The application's lines (slog JSON, whose "level" Lambda reads) pass at every level: the
 * functions' OFICINA_LOG_LEVEL decides them.
 */
export const FUNCTION_LOGGING = {
  loggingFormat: lambda.LoggingFormat.JSON,
  systemLogLevelV2: lambda.SystemLogLevel.WARN,
  applicationLogLevelV2: lambda.ApplicationLogLevel.TRACE,
} as const;

export interface GoFunctionProps {
  /** functions/<name>; the code is <lambdaDir>/<name>.zip holding `bootstrap`. */
  readonly name: LambdaFunctionName;
  readonly lambdaDir: string;
  readonly stage: Stage;
  readonly description: string;
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly environment: Record<string, string>;
  /** Reserved concurrency (undefined: none; lib/config.ts concurrency settings). */
  readonly reservedConcurrentExecutions?: number;
}

/**
 * A Go function as `make lambdas` builds it: a static linux/arm64 `bootstrap`
 * (CGO_ENABLED=0, -tags lambda.norpc) in a zip, on the provided.al2023 OS-only
 * runtime. Code.fromAsset takes the zip as it is (no bundling, no Docker), so
 * synth only reads a file.
 *
 * Each function gets its own log group with a retention (Lambda's implicit
 * /aws/lambda/<fn> group never expires), destroyed with a dev stack and kept
 * with a prod one, and its own role that may write to that log group only
 * (instead of AWSLambdaBasicExecutionRole's logs:* on every group). Other
 * permissions are granted by the stack, action by action.
 */
export class GoFunction extends Construct {
  readonly fn: lambda.Function;
  readonly logGroup: logs.LogGroup;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: GoFunctionProps) {
    super(scope, id);
    const prod = props.stage === 'prod';
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: prod ? logs.RetentionDays.THREE_MONTHS : logs.RetentionDays.TWO_WEEKS,
      removalPolicy: prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `functions/${props.name}`,
    });
    this.logGroup.grantWrite(this.role);
    this.fn = new lambda.Function(this, 'Function', {
      role: this.role,
      description: props.description,
      runtime: lambda.Runtime.PROVIDED_AL2023,
      architecture: lambda.Architecture.ARM_64,
      handler: 'bootstrap',
      code: lambda.Code.fromAsset(lambdaZip(props.lambdaDir, props.name)),
      memorySize: props.memorySize,
      timeout: props.timeout,
      environment: props.environment,
      logGroup: this.logGroup,
      ...FUNCTION_LOGGING,
      ...(props.reservedConcurrentExecutions !== undefined ? { reservedConcurrentExecutions: props.reservedConcurrentExecutions } : {}),
    });
  }
}
