import { CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { type OficinaConfig, reservation, validateConfig } from './config';
import { Backups } from './backups';
import { Billing, STRIPE_WEBHOOK_PATH } from './billing';
import { GoFunction } from './go-function';
import { Mail } from './mail';
import { Files } from './files';
import { LIVE_PATH, LiveUpdates } from './live-updates';
import { WebDav } from './webdav';
import { Monitoring } from './monitoring';
import { type ScheduledJob, Schedules } from './schedules';
import { Site } from './site';
import { API_TABLE_ACTIONS, STREAM_TABLE_ACTIONS } from './table-access';
import {
  globalSecondaryIndexProps,
  loadTableDefinition,
  type TableDefinition,
  tableSchemaProps,
} from './table-definition';

export interface OficinaStackProps extends StackProps {
  readonly config: OficinaConfig;
  /** Directory holding api.zip, stream.zip and schedule.zip (`make lambdas` → build/lambda). */
  readonly lambdaDir: string;
  /** The built SPA (web/dist). */
  readonly webDir: string;
  /** Defaults to shared/store/dynamo/table.json. */
  readonly tableDefinition?: TableDefinition;
  /** Defaults to functions/schedule/jobs.json. */
  readonly scheduledJobs?: readonly ScheduledJob[];
}

/** The stream event source's settings, exported for the tests and the README. */
export const STREAM_SOURCE = {
  batchSize: 100,
  maxBatchingWindow: Duration.seconds(1),
  retryAttempts: 10,
  // Six hours of retries, then the batch's coordinates go to the failure
  // queue while its records are still in the stream (24 h retention) to replay.
  maxRecordAge: Duration.hours(6),
  parallelizationFactor: 1,
} as const;

/** The api function's timeout; API Gateway gives up at 30 s. */
export const API_TIMEOUT = Duration.seconds(25);
/**
 * The longest _changes long poll (OFICINA_LONGPOLL_MAX): 2 s, so no 1 GB
 * function is held waiting for changes (the SPA learns of them from the
 * live channel, or polls); well inside API_TIMEOUT either way.
 */
export const API_LONGPOLL_MAX = Duration.seconds(2);

/**
 * The api's collector settings. Its package init allocates about 8 MB
 * (libphonenumber's metadata, AWS's clients, the Markdown and HTML
 * sanitiser's tables), past the 4 MB heap of Go's first collection, so at
 * the default GOGC a cold start collected twice before its first request:
 * init p50 24.6 → 21.4 ms at 400, side by side at the runtime-API harness
 * (docs/figures.md). The heap may then grow to five times what it keeps
 * live; GOMEMLIMIT, three quarters of the function's 1,024 MB, makes Go
 * collect harder well before Lambda's limit whatever GOGC allows.
 */
export const API_GC = { GOGC: '400', GOMEMLIMIT: '768MiB' };

/** Stack outputs by logical id: localstack/deploy.sh and operators read these names. */
export const OUTPUTS = {
  siteUrl: 'SiteUrl',
  distributionId: 'DistributionId',
  distributionDomainName: 'DistributionDomainName',
  apiEndpoint: 'ApiEndpoint',
  webdavUrl: 'WebDavUrl',
  tableName: 'TableName',
  tableStreamArn: 'TableStreamArn',
  siteBucketName: 'SiteBucketName',
  filesBucketName: 'FilesBucketName',
  apiFunctionName: 'ApiFunctionName',
  streamFunctionName: 'StreamFunctionName',
  scheduleFunctionName: 'ScheduleFunctionName',
  workerFunctionName: 'WorkerFunctionName',
  jobsDeadLetterQueueUrl: 'JobsDeadLetterQueueUrl',
  backupBucketName: 'BackupBucketName',
  streamFailureQueueUrl: 'StreamFailureQueueUrl',
  mailFeedbackFailureQueueUrl: 'MailFeedbackFailureQueueUrl',
  mailConfigurationSet: 'MailConfigurationSet',
  mailIdentity: 'MailIdentity',
  alarmTopicArn: 'AlarmTopicArn',
  stripeWebhookUrl: 'StripeWebhookUrl',
} as const;

/**
 * Oficina in one stack: the table and its stream consumer, the API function
 * behind an HTTP API, the SPA on S3 + CloudFront (which also fronts the API
 * under /api/*), SES, and the alarms. Environment-agnostic (no account or
 * region, no lookups), so it synthesises anywhere, offline.
 */
export class OficinaStack extends Stack {
  /** The table: created here, or an existing one (config.tableName, a restore). */
  readonly table: dynamodb.ITable;
  readonly httpApi: apigwv2.HttpApi;
  readonly apiFunction: lambda.Function;
  readonly streamFunction: lambda.Function;
  readonly streamFailureQueue: sqs.Queue;
  /** SES feedback the worker could not record (lib/mail.ts). */
  readonly mailFeedbackFailures: sqs.Queue;
  readonly schedules: Schedules;
  /** Stripe: the keys' secret the functions read (lib/billing.ts). */
  readonly billing: Billing;
  readonly site: Site;
  /** The drive's versioned bucket. */
  readonly files: Files;
  /** The drive over WebDAV: functions/webdav's image at its own Function URL (lib/webdav.ts). */
  readonly webdav: WebDav;
  readonly mail: Mail;
  readonly monitoring: Monitoring;
  /** The Groups' backups: their own bucket with Object Lock (lib/backups.ts). */
  readonly backups: Backups;
  /** Live updates: the WebSocket API and functions/live (lib/live-updates.ts). */
  readonly live: LiveUpdates;

  constructor(scope: Construct, id: string, props: OficinaStackProps) {
    const config = validateConfig(props.config);
    const prod = config.stage === 'prod';
    super(scope, id, { ...props, terminationProtection: props.terminationProtection ?? prod });
    Tags.of(this).add('app', 'oficina');
    Tags.of(this).add('stage', config.stage);

    // ── Data: the single table, as shared/store/dynamo/table.json defines it,
    // or an existing table restored from a backup (README, disaster
    // recovery): the stack then uses it as it is and does not manage it.
    const def = props.tableDefinition ?? loadTableDefinition();
    if (config.tableName && config.tableStreamArn) {
      this.table = dynamodb.Table.fromTableAttributes(this, 'Table', {
        tableName: config.tableName,
        tableStreamArn: config.tableStreamArn,
        globalIndexes: def.globalSecondaryIndexes.map((g) => g.indexName),
      });
    } else {
      const table = new dynamodb.Table(this, 'Table', {
        ...tableSchemaProps(def),
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: prod,
        removalPolicy: prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      });
      for (const gsi of globalSecondaryIndexProps(def)) table.addGlobalSecondaryIndex(gsi);
      this.table = table;
    }

    // ── Mail.
    this.mail = new Mail(this, 'Mail', {
      mailFrom: config.mailFrom,
      ...(config.sesDomain ? { sesDomain: config.sesDomain } : {}),
    });

    // ── HTTP API. Created before the site (which needs its endpoint) and the
    // function (which needs the site's URL); the route is added after both.
    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      description: `Oficina ${config.stage} JSON API (served to browsers through CloudFront under /api/*)`,
      createDefaultStage: false,
    });
    const accessLogs = new logs.LogGroup(this, 'HttpApiAccessLogs', {
      retention: prod ? logs.RetentionDays.THREE_MONTHS : logs.RetentionDays.TWO_WEEKS,
      removalPolicy: prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    new apigwv2.HttpStage(this, 'HttpApiStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      // A ceiling against runaway clients and bills; the app has its own per-user limits.
      throttle: { rateLimit: 200, burstLimit: 400 },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(accessLogs),
        format: apigateway.AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            time: '$context.requestTime',
            ip: '$context.identity.sourceIp',
            method: '$context.httpMethod',
            path: '$context.path',
            status: '$context.status',
            bytes: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationMs: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });

    // ── The origin secret CloudFront sends to the API (edge-headers.ts):
    // generated by Secrets Manager, and placed in the distribution and the
    // api function's environment through a dynamic reference that
    // CloudFormation resolves at deploy time, so it is never in the template.
    // To rotate: put a new value in the secret and deploy again.
    const originSecret = new secretsmanager.Secret(this, 'OriginSecret', {
      description: `Oficina ${config.stage}: the header CloudFront sends to the API; requests without it are refused`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const originSecretValue = originSecret.secretValue.unsafeUnwrap();

    // ── Live updates' WebSocket API (lib/live-updates.ts), which the site routes /api/_live to.
    this.live = new LiveUpdates(this, 'Live', { stage: config.stage });

    // ── Site: S3 + CloudFront, /api/* to the HTTP API.
    this.site = new Site(this, 'Site', {
      beforeApi: { [LIVE_PATH]: this.live.behavior(originSecretValue) },
      originSecret: originSecretValue,
      stage: config.stage,
      webDir: props.webDir,
      apiEndpoint: this.httpApi.apiEndpoint,
      ...(config.domainName ? { domainName: config.domainName } : {}),
      ...(config.certificateArn ? { certificateArn: config.certificateArn } : {}),
      avatarOrigins: config.avatarOrigins,
    });

    // ── The drive's files: a versioned bucket (lib/files.ts).
    this.files = new Files(this, 'Files', { stage: config.stage, siteUrl: this.site.url });
    this.backups = new Backups(this, 'Backups');
    // Only the function that makes and signs backups (the worker: on
    // schedule, and on the api's request) learns where they are.
    const backupEnv = { OFICINA_BACKUP_BUCKET: this.backups.bucket.bucketName };

    // ── Functions.
    const store: Record<string, string> = {
      OFICINA_STORE: 'dynamo',
      OFICINA_TABLE: this.table.tableName,
      // One JSON object a line: CloudWatch Logs Insights can query the fields.
      OFICINA_LOG_FORMAT: 'json',
    };
    const common: Record<string, string> = {
      ...store,
      OFICINA_MAIL: 'ses',
      OFICINA_MAIL_FROM: config.mailFrom,
      OFICINA_SES_CONFIGURATION_SET: this.mail.configurationSet.configurationSetName,
      OFICINA_BASE_URL: this.site.url,
      OFICINA_BLOBS: 's3',
      OFICINA_BUCKET: this.files.bucket.bucketName,
    };

    const api = new GoFunction(this, 'Api', {
      name: 'api',
      lambdaDir: props.lambdaDir,
      stage: config.stage,
      description: 'Oficina JSON API (functions/api)',
      // argon2id password hashing wants memory, and Lambda CPU grows with it.
      memorySize: 1024,
      timeout: API_TIMEOUT,
      reservedConcurrentExecutions: reservation(config, 'api'),
      environment: {
        ...common,
        OFICINA_SERVER_ADMINS: config.serverAdmins.join(','),
        OFICINA_COOKIE_SECURE: 'true',
        OFICINA_ORIGIN_SECRET: originSecretValue,
        OFICINA_LONGPOLL_MAX: `${API_LONGPOLL_MAX.toSeconds()}s`,
        ...API_GC,
        ...(config.systemNotificationsUrl ? { OFICINA_SYSTEM_NOTIFICATIONS_URL: config.systemNotificationsUrl } : {}),
      },
    });
    this.apiFunction = api.fn;
    this.table.grant(api.fn, ...API_TABLE_ACTIONS);
    this.mail.grantSend(api.fn);
    this.files.grantBlobs(api.fn);
    // ── The drive over WebDAV (lib/webdav.ts): the same product settings,
    // its own Function URL; the table and the bucket, no mail.
    this.webdav = new WebDav(this, 'WebDav', { stage: config.stage, environment: common, reservedConcurrentExecutions: reservation(config, 'webdav') });
    this.table.grant(this.webdav.fn, ...API_TABLE_ACTIONS);
    this.files.grantBlobs(this.webdav.fn);
    // The drive's WebDAV help shows this address (CloudFront does not pass PROPFIND, MKCOL, LOCK…).
    api.fn.addEnvironment('OFICINA_DAV_URL', `${this.webdav.url.url}dav/`);
    new apigwv2.HttpRoute(this, 'HttpApiDefaultRoute', {
      httpApi: this.httpApi,
      // $default: every path and method goes to the one Go mux, which owns /api/…
      routeKey: apigwv2.HttpRouteKey.DEFAULT,
      integration: new HttpLambdaIntegration('ApiIntegration', api.fn, {
        payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_2_0,
      }),
    });

    this.streamFailureQueue = new sqs.Queue(this, 'StreamFailureQueue', {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const stream = new GoFunction(this, 'Stream', {
      name: 'stream',
      lambdaDir: props.lambdaDir,
      stage: config.stage,
      description: 'Oficina table stream consumer: history and counters (functions/stream)',
      memorySize: 512,
      timeout: Duration.seconds(60),
      // It only reads and writes the table: no mail, no links.
      environment: store,
      reservedConcurrentExecutions: reservation(config, 'stream'),
    });
    this.streamFunction = stream.fn;
    this.table.grant(stream.fn, ...STREAM_TABLE_ACTIONS);
    stream.fn.addEventSource(
      new DynamoEventSource(this.table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        ...STREAM_SOURCE,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(this.streamFailureQueue),
        // Only document items (SK "D#…") reach the consumer, and never the
        // history entries it writes itself: records, meta items, change
        // rows and DocumentChange docs would only re-invoke it for nothing.
        // Filter rules match leaf values only, so "no klass" is tested on
        // klass.S: on klass itself (an object) exists:false always matches.
        filters: [
          lambda.FilterCriteria.filter({
            dynamodb: {
              Keys: { SK: { S: lambda.FilterRule.beginsWith('D#') } },
              NewImage: { klass: { S: lambda.FilterRule.notEquals('DocumentChange') } },
            },
          }),
          lambda.FilterCriteria.filter({
            dynamodb: {
              Keys: { SK: { S: lambda.FilterRule.beginsWith('D#') } },
              NewImage: { klass: { S: lambda.FilterRule.notExists() } },
            },
          }),
        ],
      }),
    );

    // ── Live updates: functions/live behind the WebSocket API; the stream posts the notices.
    this.live.attach({
      lambdaDir: props.lambdaDir,
      environment: {
        ...common,
        OFICINA_SERVER_ADMINS: config.serverAdmins.join(','),
        OFICINA_COOKIE_SECURE: 'true',
        OFICINA_ORIGIN_SECRET: originSecretValue,
      },
      table: this.table,
      stream: stream.fn,
      reservedConcurrentExecutions: reservation(config, 'live'),
    });

    // ── Scheduled jobs: a rule per job, the dispatcher, the jobs queue and
    // the worker (lib/schedules.ts).
    this.schedules = new Schedules(this, 'Schedules', {
      lambdaDir: props.lambdaDir,
      stage: config.stage,
      environment: { ...common, ...backupEnv },
      dispatcherEnvironment: store,
      table: this.table,
      dispatcherConcurrency: reservation(config, 'schedule'),
      workerConcurrency: reservation(config, 'worker'),
      ...(props.scheduledJobs ? { jobs: props.scheduledJobs } : {}),
    });
    // The drive's jobs (abandoned uploads) and the backups reach the files too.
    this.files.grantBlobs(this.schedules.worker);
    this.backups.grantWriter(this.schedules.worker);
    // The api holds no grant on the backups: it asks the worker, invoked
    // synchronously, to make one on request and to sign a download or a
    // restore's read (shared/backup/keeper.go).
    api.fn.addEnvironment('OFICINA_WORKER_FUNCTION', this.schedules.worker.functionName);
    this.schedules.worker.grantInvoke(api.fn);
    // The limit mail and the weekly summary (shared/limits) are sent by jobs.
    this.mail.grantSend(this.schedules.worker);
    // SES's bounces and complaints reach the app through the worker: it has
    // the table and is off the request path; the stream function's batches
    // are DynamoDB's, and the dispatcher only queues (lib/mail.ts).
    this.mailFeedbackFailures = this.mail.deliverFeedback(this.schedules.worker);

    // ── Billing: the Stripe keys' secret (lib/billing.ts); the webhook is
    // /api/billing/webhook on the API, the daily usage report the
    // billing.usage rule of the jobs above.
    this.billing = new Billing(this, 'Billing', {
      stage: config.stage,
      api: api.fn,
      schedule: this.schedules.worker,
    });

    // ── Alarms.
    this.monitoring = new Monitoring(this, 'Monitoring', {
      ...(config.alarmEmail ? { alarmEmail: config.alarmEmail } : {}),
    });
    this.monitoring.watchFunction('Api', api.fn);
    this.monitoring.watchFunction('Stream', stream.fn);
    this.monitoring.watchFunction('Schedule', this.schedules.fn);
    this.monitoring.watchFunction('Worker', this.schedules.worker);
    this.monitoring.watchFunction('WebDav', this.webdav.fn);
    this.monitoring.watchFunction('Live', this.live.fn);
    this.monitoring.watchDeadLetters('JobsDeadLetters', 'jobs: tasks failed 5 times; read them in the dead-letter queue, fix, and redrive', this.schedules.deadLetterQueue);
    this.monitoring.watchDeadLetters(
      'MailFeedbackFailures',
      'mail feedback: SES bounce or complaint reports the worker could not record; read them in the queue (MailFeedbackFailureQueueUrl) and suppress the addresses',
      this.mailFeedbackFailures,
    );
    this.monitoring.watchTable(this.table);
    this.monitoring.dashboard({
      api: api.fn,
      stream: stream.fn,
      dispatcher: this.schedules.fn,
      worker: this.schedules.worker,
      webdav: this.webdav.fn,
      live: this.live.fn,
      httpApi: this.httpApi,
      table: this.table,
      jobsQueue: this.schedules.queue,
      jobsDeadLetters: this.schedules.deadLetterQueue,
    });
    this.monitoring.watchStreamConsumer(stream.fn, this.streamFailureQueue);
    this.monitoring.watchHttpApi(this.httpApi);
    this.monitoring.watchMailReputation();

    // ── Outputs.
    const out = (id: string, value: string, description: string) => new CfnOutput(this, id, { value, description });
    out(OUTPUTS.siteUrl, this.site.url, 'The site (and the API under /api/)');
    out(OUTPUTS.distributionId, this.site.distribution.distributionId, 'CloudFront distribution id');
    out(
      OUTPUTS.distributionDomainName,
      this.site.distribution.distributionDomainName,
      config.domainName ? `Point a CNAME (or alias) for ${config.domainName} here` : 'The site host name',
    );
    out(OUTPUTS.apiEndpoint, this.httpApi.apiEndpoint, 'HTTP API endpoint (CloudFront is the public way in)');
    out(OUTPUTS.webdavUrl, `${this.webdav.url.url}dav/`, 'WebDAV address: e-mail and an API token (requests up to 6 MB; README, WebDAV)');
    out(OUTPUTS.stripeWebhookUrl, `${this.site.url}${STRIPE_WEBHOOK_PATH}`, 'The endpoint to register in Stripe (its signing secret goes in the Stripe secret)');
    out(OUTPUTS.tableName, this.table.tableName, 'OFICINA_TABLE');
    out(OUTPUTS.tableStreamArn, this.table.tableStreamArn ?? '', 'The table stream');
    out(OUTPUTS.siteBucketName, this.site.bucket.bucketName, 'The SPA bucket');
    out(OUTPUTS.filesBucketName, this.files.bucket.bucketName, "The drive's files (OFICINA_BUCKET)");
    out(OUTPUTS.apiFunctionName, api.fn.functionName, 'functions/api');
    out(OUTPUTS.streamFunctionName, stream.fn.functionName, 'functions/stream');
    out(OUTPUTS.scheduleFunctionName, this.schedules.fn.functionName, 'functions/schedule (the jobs dispatcher)');
    out(OUTPUTS.workerFunctionName, this.schedules.worker.functionName, 'functions/worker (one job for one Group a task)');
    out(OUTPUTS.jobsDeadLetterQueueUrl, this.schedules.deadLetterQueue.queueUrl, 'Job tasks that failed 5 times: fix the cause, then redrive them to the jobs queue');
    out(OUTPUTS.backupBucketName, this.backups.bucket.bucketName, "The Groups' backups (Object Lock, governance)");
    out(OUTPUTS.streamFailureQueueUrl, this.streamFailureQueue.queueUrl, 'Failed stream batches (shard and sequence ranges to replay)');
    out(OUTPUTS.mailFeedbackFailureQueueUrl, this.mailFeedbackFailures.queueUrl, 'SES bounce and complaint reports the worker could not record');
    out(OUTPUTS.mailConfigurationSet, this.mail.configurationSet.configurationSetName, 'OFICINA_SES_CONFIGURATION_SET');
    out(OUTPUTS.mailIdentity, this.mail.identity.emailIdentityName, 'The SES identity mail is sent from');
    out(OUTPUTS.alarmTopicArn, this.monitoring.topic.topicArn, 'Subscribe to receive alarms');
    if (this.mail.isDomainIdentity) {
      const id = this.mail.identity;
      const records: Array<[string, string]> = [
        [id.dkimDnsTokenName1, id.dkimDnsTokenValue1],
        [id.dkimDnsTokenName2, id.dkimDnsTokenValue2],
        [id.dkimDnsTokenName3, id.dkimDnsTokenValue3],
      ];
      records.forEach(([name, value], i) =>
        out(`MailDkimRecord${i + 1}`, Fn.join(' ', [name, 'CNAME', value]), 'Add this DNS record to verify the SES domain'),
      );
    }
  }
}
