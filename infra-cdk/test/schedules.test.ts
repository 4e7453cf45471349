/**
 * Assertion tests for the scheduled jobs: functions/schedule and one
 * EventBridge rule per job of functions/schedule/jobs.json (which a Go test
 * keeps equal to the registered jobs).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { configFromContext } from '../lib/config';
import { OficinaStack, OUTPUTS } from '../lib/oficina-stack';
import { temporaryPlaceholderAssets } from '../lib/placeholder-assets';
import { loadScheduledJobs, ruleId, type ScheduledJob } from '../lib/schedules';
import { API_TABLE_ACTIONS } from '../lib/table-access';
import {
  actions,
  type CfnTemplate,
  functionRole,
  logicalIdOf,
  PROD_CONTEXT,
  REPO_DIR,
  resourcesOfType,
  roleStatements,
  synth,
} from './support';

const dev = () => synth();
const prod = () => synth({ ...PROD_CONTEXT });
const rules = (json: CfnTemplate) => resourcesOfType(json, 'AWS::Events::Rule');

describe('scheduled jobs', () => {
  it('reads the jobs the Go side registers from functions/schedule/jobs.json', () => {
    const jobs = loadScheduledJobs();
    assert.ok(jobs.length >= 2);
    assert.deepEqual(
      jobs.map((j) => j.name),
      ['backup.scheduled', 'billing.usage', 'docs.rekey', 'drive.uploads', 'limits.check', 'limits.digest', 'limits.snapshot', 'reader.refresh', 'reader.retention'],
    );
    // per_group is for the dispatcher, which reads the same file (Go); the rules need name and schedule.
    const file = JSON.parse(fs.readFileSync(path.join(REPO_DIR, 'functions', 'schedule', 'jobs.json'), 'utf8')) as ScheduledJob[];
    assert.deepEqual(
      jobs,
      file.map(({ name, schedule }) => ({ name, schedule })),
    );
  });

  it('has one enabled rule per job, with its schedule, sending the scheduled event that names the job', () => {
    const s = dev();
    const fn = logicalIdOf(s, s.stack.schedules.fn);
    const jobs = loadScheduledJobs();
    assert.equal(rules(s.json).length, jobs.length);
    for (const job of jobs) {
      const rule = s.stack.schedules.rules[job.name];
      assert.ok(rule, `no rule for ${job.name}`);
      const p = s.json.Resources[logicalIdOf(s, rule)].Properties!;
      assert.equal(p.ScheduleExpression, job.schedule);
      assert.equal(p.State, 'ENABLED');
      assert.equal(p.Targets.length, 1);
      const target = p.Targets[0];
      assert.deepEqual(target.Arn, { 'Fn::GetAtt': [fn, 'Arn'] });
      assert.deepEqual(target.RetryPolicy, { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 3 });
      // An input transformer: the real event's id, time, account and region; the job in detail.
      const tr = target.InputTransformer;
      assert.deepEqual(Object.values(tr.InputPathsMap).sort(), ['$.account', '$.id', '$.region', '$.time']);
      // Placeholders stand unquoted for whole values: EventBridge puts the
      // JSON value there (a quoted string).
      assert.match(tr.InputTemplate, /"id":<[a-z-]+>/);
      const template = JSON.parse((tr.InputTemplate as string).replace(/:<([a-z-]+)>/g, ':"<$1>"'));
      assert.equal(template['detail-type'], 'Scheduled Event');
      assert.equal(template.source, 'aws.events');
      assert.deepEqual(template.detail, { job: job.name });
      assert.deepEqual(template.resources, []);
    }
  });

  it('sends the same shape as events/eventbridge-scheduled.json, which the Go handler is tested with', () => {
    const s = dev();
    const sample = JSON.parse(fs.readFileSync(path.join(REPO_DIR, 'events', 'eventbridge-scheduled.json'), 'utf8'));
    const rule = s.stack.schedules.rules[sample.detail.job];
    assert.ok(rule, `the sample names ${sample.detail.job}, which has no rule`);
    const tr = s.json.Resources[logicalIdOf(s, rule)].Properties!.Targets[0].InputTransformer;
    const keys = Object.keys(JSON.parse((tr.InputTemplate as string).replace(/<[a-z-]+>/g, '"x"'))).sort();
    assert.deepEqual(keys, Object.keys(sample).sort());
  });

  it('lets EventBridge, and only the rules, invoke the function', () => {
    const s = dev();
    const fn = logicalIdOf(s, s.stack.schedules.fn);
    const perms = resourcesOfType(s.json, 'AWS::Lambda::Permission').filter(
      ([, r]) => JSON.stringify(r.Properties!.FunctionName).includes(`"${fn}"`),
    );
    assert.equal(perms.length, loadScheduledJobs().length);
    for (const [, p] of perms) {
      assert.equal(p.Properties!.Principal, 'events.amazonaws.com');
      assert.equal(p.Properties!.Action, 'lambda:InvokeFunction');
      assert.ok(p.Properties!.SourceArn['Fn::GetAtt'], 'scoped to one rule');
    }
  });

  it('runs functions/schedule on Go arm64 from its zip, with its own logs, the store settings and a retry', () => {
    const s = prod();
    const fnId = logicalIdOf(s, s.stack.schedules.fn);
    const p = s.json.Resources[fnId].Properties!;
    assert.equal(p.Runtime, 'provided.al2023');
    assert.deepEqual(p.Architectures, ['arm64']);
    assert.equal(p.Handler, 'bootstrap');
    assert.equal(p.Timeout, 300);
    // The dispatcher: the store and the queue, nothing else.
    assert.deepEqual(Object.keys(p.Environment.Variables).sort(), ['OFICINA_JOBS_QUEUE_URL', 'OFICINA_LOG_FORMAT', 'OFICINA_STORE', 'OFICINA_TABLE']);
    const w = s.json.Resources[logicalIdOf(s, s.stack.schedules.worker)].Properties!;
    assert.deepEqual(Object.keys(w.Environment.Variables).sort(), [
      'GOGC', // no collection in its cold start (ops.test.ts)
      'OFICINA_BACKUP_BUCKET',
      'OFICINA_BASE_URL',
      'OFICINA_BLOBS',
      'OFICINA_BUCKET',
      'OFICINA_LOG_FORMAT',
      'OFICINA_MAIL',
      'OFICINA_MAIL_FROM',
      'OFICINA_SES_CONFIGURATION_SET',
      'OFICINA_STORE',
      'OFICINA_STRIPE_SECRETS_ARN', // the usage report's Stripe keys (billing.test.ts)
      'OFICINA_TABLE',
    ]);
    const lg = p.LoggingConfig.LogGroup.Ref as string;
    assert.equal(s.json.Resources[lg].Properties!.RetentionInDays, 90);
    const invoke = resourcesOfType(s.json, 'AWS::Lambda::EventInvokeConfig').filter(([, r]) => JSON.stringify(r.Properties).includes(`"${fnId}"`));
    assert.equal(invoke.length, 1);
    assert.equal(invoke[0][1].Properties!.MaximumRetryAttempts, 1);
    assert.equal(invoke[0][1].Properties!.MaximumEventAgeInSeconds, 1800);
    // Distinct code from the other functions.
    const codes = [s.stack.apiFunction, s.stack.streamFunction, s.stack.schedules.fn, s.stack.schedules.worker].map(
      (f) => s.json.Resources[logicalIdOf(s, f)].Properties!.Code.S3Key,
    );
    assert.equal(new Set(codes).size, 4);
  });

  it("grants the worker the API's table actions, sending mail only (limit mail, weekly summary), no wildcards, its own log group only", () => {
    const s = dev();
    const fnId = logicalIdOf(s, s.stack.schedules.worker);
    const role = functionRole(s.json, fnId);
    const sts = roleStatements(s.json, role);
    assert.deepEqual(
      sts
        .flatMap(actions)
        .filter((a) => a.startsWith('dynamodb:'))
        .sort(),
      [...API_TABLE_ACTIONS].sort(),
    );
    assert.deepEqual(
      sts
        .flatMap(actions)
        .filter((a) => a.startsWith('ses:'))
        .sort(),
      ['ses:SendEmail', 'ses:SendRawEmail'],
      'the jobs send mail and do nothing else with SES',
    );
    for (const st of sts) for (const a of actions(st)) assert.ok(!a.includes('*'), `wildcard action ${a}`);
    assert.equal(s.json.Resources[role].Properties!.ManagedPolicyArns, undefined);
  });

  it("alarms on the function's errors and throttles, and outputs its name", () => {
    const s = dev();
    const fnId = logicalIdOf(s, s.stack.schedules.fn);
    for (const metric of ['Errors', 'Throttles']) {
      const found = resourcesOfType(s.json, 'AWS::CloudWatch::Alarm').filter(
        ([, a]) => a.Properties!.MetricName === metric && JSON.stringify(a.Properties!.Dimensions).includes(`"${fnId}"`),
      );
      assert.equal(found.length, 1, `${metric} alarm`);
    }
    assert.ok(Object.keys(s.json.Outputs ?? {}).includes(OUTPUTS.scheduleFunctionName));
  });

  it('makes rules for the jobs it is given, and refuses a bad jobs file', () => {
    const assets = temporaryPlaceholderAssets();
    try {
      const app = new App();
      const stack = new OficinaStack(app, 'Jobs', {
        config: configFromContext(() => undefined),
        ...assets,
        scheduledJobs: [
          { name: 'billing.weekly-summary', schedule: 'cron(0 9 ? * MON *)' },
          { name: 'drive.trash', schedule: 'rate(1 day)' },
        ],
      });
      const json = Template.fromStack(stack).toJSON() as CfnTemplate;
      assert.deepEqual(rules(json).map(([, r]) => r.Properties!.ScheduleExpression).sort(), ['cron(0 9 ? * MON *)', 'rate(1 day)']);
      assert.equal(ruleId('billing.weekly-summary'), 'JobBillingWeeklySummary');
    } finally {
      fs.rmSync(path.dirname(assets.lambdaDir), { recursive: true, force: true });
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oficina-jobs-'));
    try {
      for (const bad of [
        '{}',
        '[{"name":"x"}]',
        '[{"name":"Bad Name","schedule":"rate(1 day)"}]',
        '[{"name":"a","schedule":"rate(1 days)"}]',
        '[{"name":"a","schedule":"cron(0 9 * *)"}]',
        '[{"name":"a","schedule":"rate(5 minutes)"},{"name":"a","schedule":"rate(1 hour)"}]',
      ]) {
        fs.writeFileSync(path.join(dir, 'jobs.json'), bad);
        assert.throws(() => loadScheduledJobs(path.join(dir, 'jobs.json')), Error, bad);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
