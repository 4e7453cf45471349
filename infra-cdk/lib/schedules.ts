import * as fs from 'node:fs';
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { Stage } from './config';
import { GoFunction } from './go-function';
import { SCHEDULED_JOBS_FILE } from './paths';
import { API_TABLE_ACTIONS } from './table-access';

/** A job of the module seam (shared/module.Job), as functions/schedule/jobs.json lists it. */
export interface ScheduledJob {
  /** e.g. reader.refresh */
  readonly name: string;
  /** An EventBridge schedule expression: rate(…) or cron(…), UTC. */
  readonly schedule: string;
}

const JOB_NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;
const RATE = /^rate\((1 (minute|hour|day)|([2-9]|[1-9][0-9]+) (minutes|hours|days))\)$/;
const CRON = /^cron\(\S+ \S+ \S+ \S+ \S+ \S+\)$/;

/**
 * Reads functions/schedule/jobs.json: the registered jobs, written by the
 * Go side (`go test ./functions/schedule -run TestJobsFile -update`) and
 * checked against the registry by that test, so the rules here and the
 * jobs there cannot drift apart.
 */
export function loadScheduledJobs(file: string = SCHEDULED_JOBS_FILE): ScheduledJob[] {
  const raw: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(raw)) throw new Error(`${file}: expected an array of {name, schedule}`);
  const seen = new Set<string>();
  return raw.map((j: unknown, i) => {
    const { name, schedule } = (j ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || !JOB_NAME.test(name)) throw new Error(`${file}[${i}]: bad job name ${JSON.stringify(name)}`);
    if (typeof schedule !== 'string' || !(RATE.test(schedule) || CRON.test(schedule))) {
      throw new Error(`${file}[${i}] ${name}: bad schedule ${JSON.stringify(schedule)}`);
    }
    if (seen.has(name)) throw new Error(`${file}: job ${name} listed twice`);
    seen.add(name);
    return { name, schedule };
  });
}

/** The job's rule id: reader.refresh → JobReaderRefresh. */
export function ruleId(job: string): string {
  return `Job${job
    .split(/[.-]/)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('')}`;
}

/**
 * The scheduled event a rule sends: EventBridge's own "Scheduled Event"
 * (its id, time, account and region kept by an input transformer) with the
 * job named in detail.job — the shape functions/schedule and the local
 * in-process scheduler both handle (shared/schedule, events/eventbridge-scheduled.json).
 */
export function scheduledEventInput(job: string): events.RuleTargetInput {
  return events.RuleTargetInput.fromObject({
    version: '0',
    id: events.EventField.eventId,
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: events.EventField.account,
    time: events.EventField.time,
    region: events.EventField.region,
    resources: [],
    detail: { job },
  });
}

/**
 * The worker's GOGC: its package init (the SES client's tables above all)
 * passes the 4 MB heap at which Go runs its first collection, so at the
 * default (100) a cold start spent about 2.5 ms collecting before the
 * first event (init p50 13.1 / 13.5 ms → 10.7 / 10.8 ms at 200, side by side
 * at the runtime-API harness, docs/figures.md). A job's heap may then grow
 * to three times what it keeps live before a collection, well inside the
 * function's 512 MB.
 */
export const WORKER_GOGC = '200';

/** The worker's timeout: one Group's job (a backup of a large Group is the longest). */
export const WORKER_TIMEOUT = Duration.minutes(5);
/**
 * The jobs queue's settings: a message is invisible for six times the
 * worker's timeout (AWS's advice for Lambda consumers), tried
 * JOBS_MAX_RECEIVES times, then kept in the dead-letter queue for 14 days.
 */
export const JOBS_QUEUE = {
  visibilityTimeout: Duration.seconds(WORKER_TIMEOUT.toSeconds() * 6),
  retentionPeriod: Duration.days(4),
  maxReceiveCount: 5,
  deadLetterRetention: Duration.days(14),
  batchSize: 10,
} as const;

export interface SchedulesProps {
  readonly lambdaDir: string;
  readonly stage: Stage;
  /** The worker's settings: the product's (store, mail, blobs, base URL). */
  readonly environment: Record<string, string>;
  /** The dispatcher's: the store's. */
  readonly dispatcherEnvironment: Record<string, string>;
  readonly table: dynamodb.ITable;
  /** Default: functions/schedule/jobs.json. */
  readonly jobs?: readonly ScheduledJob[];
  /** Reserved concurrency of the dispatcher and the worker (undefined: none). */
  readonly dispatcherConcurrency?: number;
  readonly workerConcurrency?: number;
}

/**
 * Scheduled jobs that fan out per Group: one EventBridge rule per job
 * fires functions/schedule (the dispatcher), which puts one task per Group
 * (one per round for a job that is not per Group) on the jobs queue;
 * functions/worker runs them, ten a batch, reporting partial batch
 * failures; a task that fails JOBS_QUEUE.maxReceiveCount times lands in
 * the dead-letter queue (alarmed). The worker runs a task once per Group
 * and firing however often it arrives (shared/schedule).
 */
export class Schedules extends Construct {
  /** The dispatcher (functions/schedule). */
  readonly fn: lambda.Function;
  /** The worker (functions/worker). */
  readonly worker: lambda.Function;
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly rules: Record<string, events.Rule> = {};

  constructor(scope: Construct, id: string, props: SchedulesProps) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, 'JobsDeadLetterQueue', {
      retentionPeriod: JOBS_QUEUE.deadLetterRetention,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new sqs.Queue(this, 'JobsQueue', {
      visibilityTimeout: JOBS_QUEUE.visibilityTimeout,
      retentionPeriod: JOBS_QUEUE.retentionPeriod,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: JOBS_QUEUE.maxReceiveCount },
    });
    const fn = new GoFunction(this, 'Function', {
      name: 'schedule',
      lambdaDir: props.lambdaDir,
      stage: props.stage,
      description: 'Oficina scheduled jobs dispatcher: one EventBridge rule per job; queues one task per Group (functions/schedule)',
      memorySize: 512,
      // Listing the Groups and queuing their tasks: seconds for thousands.
      timeout: Duration.minutes(5),
      environment: { ...props.dispatcherEnvironment, OFICINA_JOBS_QUEUE_URL: this.queue.queueUrl },
      ...(props.dispatcherConcurrency !== undefined ? { reservedConcurrentExecutions: props.dispatcherConcurrency } : {}),
    });
    this.fn = fn.fn;
    // It lists the Groups; opening the product also seeds system dbs and prices.
    props.table.grant(this.fn, ...API_TABLE_ACTIONS);
    this.queue.grantSendMessages(this.fn);
    this.fn.configureAsyncInvoke({ retryAttempts: 1, maxEventAge: Duration.minutes(30) });

    const worker = new GoFunction(this, 'Worker', {
      name: 'worker',
      lambdaDir: props.lambdaDir,
      stage: props.stage,
      description: 'Oficina scheduled jobs worker: one job for one Group a message, from the jobs queue (functions/worker)',
      memorySize: 512,
      timeout: WORKER_TIMEOUT,
      environment: { ...props.environment, GOGC: WORKER_GOGC },
      ...(props.workerConcurrency !== undefined ? { reservedConcurrentExecutions: props.workerConcurrency } : {}),
    });
    this.worker = worker.fn;
    // The jobs read and write documents and records like the API does.
    props.table.grant(this.worker, ...API_TABLE_ACTIONS);
    this.worker.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: JOBS_QUEUE.batchSize,
        reportBatchItemFailures: true,
        // No more pollers than the function may run: throttled batches
        // would count against the messages' receive limit.
        ...(props.workerConcurrency !== undefined && props.workerConcurrency >= 2 ? { maxConcurrency: props.workerConcurrency } : {}),
      }),
    );

    for (const job of props.jobs ?? loadScheduledJobs()) {
      this.rules[job.name] = new events.Rule(this, ruleId(job.name), {
        description: `Oficina job ${job.name} (${job.schedule})`,
        schedule: events.Schedule.expression(job.schedule),
        targets: [
          new targets.LambdaFunction(this.fn, {
            event: scheduledEventInput(job.name),
            retryAttempts: 3,
            maxEventAge: Duration.hours(1),
          }),
        ],
      });
    }
  }
}
