import * as fs from 'node:fs';
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
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

export interface SchedulesProps {
  readonly lambdaDir: string;
  readonly stage: Stage;
  readonly environment: Record<string, string>;
  readonly table: dynamodb.ITable;
  /** Default: functions/schedule/jobs.json. */
  readonly jobs?: readonly ScheduledJob[];
}

/**
 * functions/schedule and one EventBridge rule per registered job. A round
 * that fails is retried once by Lambda's asynchronous invocation; a job
 * never overlaps itself (the dispatcher holds a lease record in the table).
 */
export class Schedules extends Construct {
  readonly fn: lambda.Function;
  readonly rules: Record<string, events.Rule> = {};

  constructor(scope: Construct, id: string, props: SchedulesProps) {
    super(scope, id);
    const fn = new GoFunction(this, 'Function', {
      name: 'schedule',
      lambdaDir: props.lambdaDir,
      stage: props.stage,
      description: 'Oficina scheduled jobs: one EventBridge rule per job names it in detail.job (functions/schedule)',
      memorySize: 512,
      // A feed refresh round is seconds; the lease the dispatcher takes
      // lasts the invocation, so a run longer than the rate skips a round.
      timeout: Duration.minutes(5),
      environment: props.environment,
    });
    this.fn = fn.fn;
    // The jobs read and write documents and records like the API does.
    props.table.grant(this.fn, ...API_TABLE_ACTIONS);
    this.fn.configureAsyncInvoke({ retryAttempts: 1, maxEventAge: Duration.minutes(30) });
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
