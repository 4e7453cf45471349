/**
 * Issue 24 (operations at a thousand Groups) and issue 21's reserved
 * concurrency: the jobs queue and worker, the backups bucket, the drive's
 * retired versions, reserved concurrency as context settings, the alarms
 * and the dashboard.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BACKUP_CONTENT_DAYS,
  BACKUP_CONTENTS_CLASS,
  BACKUP_DENIED_ACTIONS,
  BACKUP_DROPPED_CLASS,
  BACKUP_MAX_DAYS,
  BACKUP_RETENTION_DAYS,
  BACKUP_WRITER_ACTIONS,
} from '../lib/backups';
import { ConfigError, configFromContext, DEFAULT_CONCURRENCY } from '../lib/config';
import { RETIRED_VERSION_GRACE_DAYS } from '../lib/files';
import { API_GC } from '../lib/oficina-stack';
import { JOBS_QUEUE, WORKER_GOGC } from '../lib/schedules';
import { actions, functionRole, logicalIdOf, PROD_CONTEXT, resourcesOfType, roleStatements, type Statement, synth } from './support';

const prod = () => synth({ ...PROD_CONTEXT });

describe('jobs fan out per Group', () => {
  it('queues tasks for the worker with a dead-letter queue, partial batch failures and an alarm', () => {
    const s = prod();
    const q = s.json.Resources[logicalIdOf(s, s.stack.schedules.queue)].Properties!;
    const dlq = logicalIdOf(s, s.stack.schedules.deadLetterQueue);
    assert.deepEqual(q.RedrivePolicy, { deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] }, maxReceiveCount: JOBS_QUEUE.maxReceiveCount });
    assert.equal(q.VisibilityTimeout, 6 * 300);
    const worker = logicalIdOf(s, s.stack.schedules.worker);
    const esm = resourcesOfType(s.json, 'AWS::Lambda::EventSourceMapping').filter(([, r]) => JSON.stringify(r.Properties!.FunctionName).includes(`"${worker}"`));
    assert.equal(esm.length, 1);
    assert.deepEqual(esm[0][1].Properties!.FunctionResponseTypes, ['ReportBatchItemFailures']);
    assert.equal(esm[0][1].Properties!.BatchSize, 10);
    assert.deepEqual(esm[0][1].Properties!.ScalingConfig, { MaximumConcurrency: DEFAULT_CONCURRENCY.worker });
    const alarm = resourcesOfType(s.json, 'AWS::CloudWatch::Alarm').find(([, a]) => JSON.stringify(a.Properties!.Dimensions ?? []).includes(`"${dlq}"`));
    assert.ok(alarm, 'an alarm on the dead-letter queue');
    // The worker's cold start runs no collection (functions/internal/coldstart sets the same).
    assert.equal(s.json.Resources[worker].Properties!.Environment.Variables.GOGC, WORKER_GOGC);
    // The api's likewise, under a memory limit below the function's.
    const apiEnv = s.json.Resources[logicalIdOf(s, s.stack.apiFunction)].Properties!.Environment.Variables;
    assert.equal(apiEnv.GOGC, API_GC.GOGC);
    assert.equal(apiEnv.GOMEMLIMIT, API_GC.GOMEMLIMIT);
    assert.ok(parseInt(API_GC.GOMEMLIMIT, 10) < s.json.Resources[logicalIdOf(s, s.stack.apiFunction)].Properties!.MemorySize);
    // Only the dispatcher sends; it gets no mail, files or backups.
    const dispatcher = roleStatements(s.json, functionRole(s.json, logicalIdOf(s, s.stack.schedules.fn))).flatMap(actions);
    assert.ok(dispatcher.includes('sqs:SendMessage'));
    assert.ok(!dispatcher.some((a) => a.startsWith('ses:') || a.startsWith('s3:')), dispatcher.join(' '));
  });
});

describe('backups out of the app reach', () => {
  it('live in a versioned bucket with Object Lock in governance mode, expired per plan class', () => {
    const s = prod();
    const b = s.json.Resources[logicalIdOf(s, s.stack.backups.bucket)];
    assert.equal(b.Properties!.ObjectLockEnabled, true);
    assert.equal(b.Properties!.VersioningConfiguration.Status, 'Enabled');
    assert.equal(b.Properties!.ObjectLockConfiguration.Rule.DefaultRetention.Mode, 'GOVERNANCE');
    assert.equal(b.DeletionPolicy, 'Retain');
    const rules = b.Properties!.LifecycleConfiguration.Rules as Array<Record<string, any>>;
    const classes = [
      ...Object.entries(BACKUP_RETENTION_DAYS).map(([plan, days]) => [`retention-${plan}`, days] as const),
      // Shared file contents: three retentions (shared/backup ContentDays).
      ...Object.entries(BACKUP_CONTENT_DAYS).map(([plan, days]) => [`contents-${plan}`, days] as const),
    ];
    for (const [id, days] of classes) {
      const r = rules.find((x) => x.Id === id)!;
      assert.ok(r, `no lifecycle rule ${id}`);
      assert.deepEqual(r.TagFilters, [{ Key: 'retention', Value: String(days) }]);
      assert.equal(r.ExpirationInDays, days);
      assert.equal(r.NoncurrentVersionExpiration.NoncurrentDays, 1);
    }
    for (const [plan, days] of Object.entries(BACKUP_CONTENT_DAYS)) {
      assert.equal(days, 3 * BACKUP_RETENTION_DAYS[plan as keyof typeof BACKUP_RETENTION_DAYS], plan);
    }
    assert.equal(new Set(classes.map(([, d]) => d)).size, classes.length, 'each class its own tag value');
    // Shared contents (shared/backup contents.go): tagged "contents", which
    // no rule but the backstop expires (a backup extends their lock in
    // place), and "dropped" once no listed backup names them: expired after
    // a day, the version removed once its lock has passed.
    const tagged = (value: string) => rules.filter((x) => JSON.stringify(x.TagFilters ?? []).includes(`"Value":"${value}"`));
    assert.deepEqual(tagged(BACKUP_CONTENTS_CLASS), []);
    const dropped = tagged(BACKUP_DROPPED_CLASS);
    assert.equal(dropped.length, 1);
    assert.equal(dropped[0]!.ExpirationInDays, 1);
    assert.equal(dropped[0]!.NoncurrentVersionExpiration.NoncurrentDays, 1);
    const backstop = rules.find((x) => x.Id === 'backstop')!;
    assert.equal(backstop.TagFilters, undefined);
    assert.equal(backstop.Prefix, undefined);
    assert.equal(backstop.ExpirationInDays, BACKUP_MAX_DAYS);
    assert.equal(BACKUP_MAX_DAYS, 400, 'shared/backup BackstopDays');
    // The worker extends locks and retags the version it looked at.
    assert.ok(BACKUP_WRITER_ACTIONS.includes('s3:PutObjectRetention') && BACKUP_WRITER_ACTIONS.includes('s3:PutObjectVersionTagging'));
  });

  it('only the worker may write; nobody deletes or bypasses the lock; api, stream and WebDAV cannot even list', () => {
    const s = prod();
    const bucket = logicalIdOf(s, s.stack.backups.bucket);
    const onBucket = (st: Statement) => JSON.stringify(st.Resource).includes(`"${bucket}"`);
    const grants = (fn: Parameters<typeof logicalIdOf>[1]) =>
      roleStatements(s.json, functionRole(s.json, logicalIdOf(s, fn))).filter(onBucket).flatMap(actions).sort();
    assert.deepEqual(grants(s.stack.schedules.worker), [...BACKUP_WRITER_ACTIONS].sort());
    for (const fn of [s.stack.apiFunction, s.stack.streamFunction, s.stack.schedules.fn]) assert.deepEqual(grants(fn), []);
    const webdav = roleStatements(s.json, logicalIdOf(s, s.stack.webdav.role)).filter(onBucket);
    assert.deepEqual(webdav, []);
    for (const [, r] of resourcesOfType(s.json, 'AWS::IAM::Policy')) {
      for (const st of r.Properties!.PolicyDocument.Statement as Statement[]) {
        if (onBucket(st)) for (const a of actions(st)) assert.ok(!/Delete|Bypass|ListBucket/.test(a), `${a} granted on the backups bucket`);
      }
    }
    const [, policy] = resourcesOfType(s.json, 'AWS::S3::BucketPolicy').find(([, p]) => JSON.stringify(p.Properties!.Bucket).includes(`"${bucket}"`))!;
    const deny = (policy.Properties!.PolicyDocument.Statement as Statement[]).find((st) => st.Effect === 'Deny' && actions(st).includes('s3:DeleteObjectVersion'))!;
    assert.deepEqual(actions(deny).sort(), [...BACKUP_DENIED_ACTIONS].sort());
    assert.deepEqual(deny.Principal, { AWS: '*' });
  });
});

describe('backups on request, downloads and restores go through the worker', () => {
  it('the api may invoke the worker (and no other function), knows its name, and not the bucket', () => {
    const s = prod();
    const api = s.json.Resources[logicalIdOf(s, s.stack.apiFunction)];
    const worker = logicalIdOf(s, s.stack.schedules.worker);
    const env = api.Properties!.Environment.Variables;
    assert.deepEqual(env.OFICINA_WORKER_FUNCTION, { Ref: worker });
    assert.equal(env.OFICINA_BACKUP_BUCKET, undefined);
    const invokes = roleStatements(s.json, functionRole(s.json, logicalIdOf(s, s.stack.apiFunction))).filter((st) =>
      actions(st).includes('lambda:InvokeFunction'),
    );
    assert.equal(invokes.length, 1);
    const targets = JSON.stringify(invokes[0]!.Resource);
    assert.ok(targets.includes(`"${worker}"`), targets);
    // The worker's ARN and its versions (ARN:*), nothing else.
    assert.equal((targets.match(/Fn::GetAtt/g) ?? []).length, 2, targets);
  });
});

describe('drive versions keep a grace period', () => {
  it('retired versions (tagged by the drive) expire 7 days after they became noncurrent', () => {
    const s = prod();
    const rules = s.json.Resources[logicalIdOf(s, s.stack.files.bucket)].Properties!.LifecycleConfiguration.Rules as Array<Record<string, any>>;
    const r = rules.find((x) => x.Id === 'retired-versions')!;
    assert.deepEqual(r.TagFilters, [{ Key: 'retired', Value: 'drive' }]);
    assert.equal(r.NoncurrentVersionExpiration.NoncurrentDays, RETIRED_VERSION_GRACE_DAYS);
    assert.equal(RETIRED_VERSION_GRACE_DAYS, 7);
  });
});

describe('reserved concurrency', () => {
  it('reserves each function its default share, settable by context, 0 for none', () => {
    const s = prod();
    const fns = { api: s.stack.apiFunction, stream: s.stack.streamFunction, schedule: s.stack.schedules.fn, worker: s.stack.schedules.worker, webdav: s.stack.webdav.fn };
    for (const [name, fn] of Object.entries(fns)) {
      assert.equal(s.json.Resources[logicalIdOf(s, fn)].Properties!.ReservedConcurrentExecutions, DEFAULT_CONCURRENCY[name as keyof typeof DEFAULT_CONCURRENCY], name);
    }
    const low = synth({ apiConcurrency: '0', webdavConcurrency: '3' });
    assert.equal(low.json.Resources[logicalIdOf(low, low.stack.apiFunction)].Properties!.ReservedConcurrentExecutions, undefined);
    assert.equal(low.json.Resources[logicalIdOf(low, low.stack.webdav.fn)].Properties!.ReservedConcurrentExecutions, 3);
  });

  it('refuses reservations the account quota cannot hold, and bad numbers', () => {
    assert.throws(() => configFromContext((k) => ({ accountConcurrency: '10' })[k]), ConfigError);
    assert.doesNotThrow(() =>
      configFromContext((k) => ({ accountConcurrency: '200', apiConcurrency: '50', streamConcurrency: '10', scheduleConcurrency: '2', workerConcurrency: '10', webdavConcurrency: '5' })[k]),
    );
    assert.throws(() => configFromContext((k) => ({ apiConcurrency: 'lots' })[k]), ConfigError);
  });
});

describe('SES feedback into the product', () => {
  it('publishes bounces and complaints to a topic only this configuration set may publish to', () => {
    const s = prod();
    const topic = logicalIdOf(s, s.stack.mail.feedbackTopic);
    const dests = resourcesOfType(s.json, 'AWS::SES::ConfigurationSetEventDestination')
      .map(([, r]) => r.Properties!.EventDestination)
      .filter((d: any) => d.SnsDestination);
    assert.equal(dests.length, 1, 'one SNS event destination');
    assert.deepEqual(dests[0].SnsDestination.TopicARN, { Ref: topic });
    assert.deepEqual([...dests[0].MatchingEventTypes].sort(), ['bounce', 'complaint']);
    assert.equal(dests[0].Enabled, true);
    const [, policy] = resourcesOfType(s.json, 'AWS::SNS::TopicPolicy').find(([, p]) => JSON.stringify(p.Properties!.Topics).includes(`"${topic}"`))!;
    const allow = (policy.Properties!.PolicyDocument.Statement as Statement[]).find((st) => st.Effect === 'Allow')!;
    assert.deepEqual(allow.Principal, { Service: 'ses.amazonaws.com' });
    assert.deepEqual(actions(allow), ['sns:Publish']);
    const cond = JSON.stringify(allow.Condition);
    assert.ok(cond.includes('aws:SourceAccount') && cond.includes('configuration-set/'), cond);
  });

  it('subscribes the worker, which may be invoked by that topic only, with retries and a failure queue that is alarmed', () => {
    const s = prod();
    const topic = logicalIdOf(s, s.stack.mail.feedbackTopic);
    const worker = logicalIdOf(s, s.stack.schedules.worker);
    const failures = logicalIdOf(s, s.stack.mailFeedbackFailures);
    const subs = resourcesOfType(s.json, 'AWS::SNS::Subscription').filter(([, r]) => JSON.stringify(r.Properties!.TopicArn).includes(`"${topic}"`));
    assert.equal(subs.length, 1, 'one subscription');
    const sub = subs[0][1].Properties!;
    assert.equal(sub.Protocol, 'lambda');
    assert.deepEqual(sub.Endpoint, { 'Fn::GetAtt': [worker, 'Arn'] });
    assert.ok(JSON.stringify(sub.RedrivePolicy).includes(failures), 'undeliverable reports go to the failure queue');
    const perms = resourcesOfType(s.json, 'AWS::Lambda::Permission').filter(([, r]) => r.Properties!.Principal === 'sns.amazonaws.com');
    assert.equal(perms.length, 1);
    assert.deepEqual(perms[0][1].Properties!.FunctionName, { 'Fn::GetAtt': [worker, 'Arn'] });
    assert.deepEqual(perms[0][1].Properties!.SourceArn, { Ref: topic });
    const [, invoke] = resourcesOfType(s.json, 'AWS::Lambda::EventInvokeConfig').find(([, r]) => JSON.stringify(r.Properties!.FunctionName).includes(`"${worker}"`))!;
    assert.equal(invoke.Properties!.MaximumRetryAttempts, 2);
    assert.deepEqual(invoke.Properties!.DestinationConfig.OnFailure.Destination, { 'Fn::GetAtt': [failures, 'Arn'] });
    // The grants: the worker sends failures to the queue; no other function hears the topic.
    const st = roleStatements(s.json, functionRole(s.json, worker));
    assert.ok(st.some((x) => actions(x).includes('sqs:SendMessage') && JSON.stringify(x.Resource).includes(failures)));
    for (const fn of [s.stack.apiFunction, s.stack.schedules.fn, s.stack.webdav.fn]) {
      const id = logicalIdOf(s, fn);
      assert.ok(!subs.some(([, r]) => JSON.stringify(r.Properties!.Endpoint).includes(`"${id}"`)));
    }
    const alarm = resourcesOfType(s.json, 'AWS::CloudWatch::Alarm').find(([, a]) => JSON.stringify(a.Properties!.Dimensions ?? []).includes(`"${failures}"`));
    assert.ok(alarm, 'an alarm on the failure queue');
  });
});

describe('operations', () => {
  it('alarms on DynamoDB throttles and system errors, the worker and the WebDAV function', () => {
    const s = prod();
    const ids = resourcesOfType(s.json, 'AWS::CloudWatch::Alarm').map(([id]) => id);
    for (const want of ['TableThrottles', 'TableSystemErrors', 'WorkerErrors', 'WorkerThrottles', 'WebDavErrors', 'WebDavThrottles', 'JobsDeadLetters', 'MailFeedbackFailures']) {
      assert.ok(ids.some((id) => id.startsWith(`Monitoring${want}`)), `no ${want} alarm in ${ids.join(', ')}`);
    }
  });

  it('has one dashboard whose alarm widget lists every alarm of the template', () => {
    const s = prod();
    const [, dash] = resourcesOfType(s.json, 'AWS::CloudWatch::Dashboard')[0];
    const body = JSON.stringify(dash.Properties!.DashboardBody);
    const alarms = resourcesOfType(s.json, 'AWS::CloudWatch::Alarm').map(([id]) => id);
    assert.equal(s.stack.monitoring.alarms.length, alarms.length);
    for (const id of alarms) assert.ok(body.includes(`"${id}"`), `${id} missing from the dashboard`);
    assert.equal(alarms.length, 21, `the template has ${alarms.length} alarms: update the alarm list in docs/operating.md`);
  });
});
