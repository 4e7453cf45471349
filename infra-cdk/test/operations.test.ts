/**
 * Operational properties of the stack: alarms can reach their topic, long
 * polls end inside the api function's timeout, and the stack can run on a
 * table restored from a backup (README, disaster recovery).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { App } from 'aws-cdk-lib';
import { ConfigError, configFromContext } from '../lib/config';
import { API_LONGPOLL_MAX, API_TIMEOUT } from '../lib/oficina-stack';
import {
  actions,
  functionRole,
  logicalIdOf,
  only,
  PROD_CONTEXT,
  resourcesOfType,
  roleStatements,
  type Statement,
  synth,
  streamMapping,
} from './support';

const dev = () => synth();
const prod = () => synth({ ...PROD_CONTEXT });

describe('alarm topic', () => {
  it('lets CloudWatch alarms of this account publish, next to the TLS-only deny', () => {
    for (const s of [dev(), prod()]) {
      const topic = logicalIdOf(s, s.stack.monitoring.topic);
      const [, policy] = only(s.json, 'AWS::SNS::TopicPolicy');
      assert.deepEqual(policy.Properties!.Topics, [{ Ref: topic }]);
      const sts = policy.Properties!.PolicyDocument.Statement as Statement[];
      const deny = sts.find((st) => st.Effect === 'Deny');
      assert.deepEqual(deny?.Condition, { Bool: { 'aws:SecureTransport': 'false' } }, 'enforceSSL stays');
      const allow = sts.filter((st) => st.Effect === 'Allow');
      assert.equal(allow.length, 1);
      assert.deepEqual(allow[0].Principal, { Service: 'cloudwatch.amazonaws.com' });
      assert.deepEqual(actions(allow[0]), ['sns:Publish']);
      assert.deepEqual(allow[0].Resource, { Ref: topic });
      const cond = allow[0].Condition as Record<string, Record<string, unknown>>;
      assert.deepEqual(cond.StringEquals, { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } });
      assert.match(JSON.stringify(cond.ArnLike['aws:SourceArn']), /:cloudwatch:.*:alarm:\*/);
    }
  });

  it('is where every alarm sends its notifications', () => {
    const s = prod();
    const topic = logicalIdOf(s, s.stack.monitoring.topic);
    for (const [, a] of resourcesOfType(s.json, 'AWS::CloudWatch::Alarm')) {
      assert.deepEqual(a.Properties!.AlarmActions, [{ Ref: topic }]);
    }
  });
});

describe('long polls', () => {
  it('end (OFICINA_LONGPOLL_MAX) inside the api function timeout, itself inside API Gateway 30 s', () => {
    const s = dev();
    const fn = s.json.Resources[logicalIdOf(s, s.stack.apiFunction)].Properties!;
    const wait = /^(\d+)s$/.exec(fn.Environment.Variables.OFICINA_LONGPOLL_MAX);
    assert.ok(wait, `OFICINA_LONGPOLL_MAX ${fn.Environment.Variables.OFICINA_LONGPOLL_MAX}`);
    assert.equal(fn.Timeout, API_TIMEOUT.toSeconds());
    assert.ok(Number(wait[1]) === API_LONGPOLL_MAX.toSeconds() && Number(wait[1]) + 2 <= fn.Timeout, 'room to answer');
    assert.ok(fn.Timeout < 30, 'API Gateway HTTP APIs give up at 30 s');
  });

  it('answer within 2 s on Lambda: no function is held waiting for changes', () => {
    const s = dev();
    const fn = s.json.Resources[logicalIdOf(s, s.stack.apiFunction)].Properties!;
    assert.equal(fn.Environment.Variables.OFICINA_LONGPOLL_MAX, '2s');
  });
});

describe('a restored table', () => {
  const restored = 'oficina-restored-2026-05-04';
  const streamArn = `arn:aws:dynamodb:sa-east-1:123456789012:table/${restored}/stream/2026-05-04T12:00:00.000`;
  const onRestore = () => synth({ ...PROD_CONTEXT, tableName: restored, tableStreamArn: streamArn });

  it('is used instead of a new table: no table resource, the functions and grants name it', () => {
    const s = onRestore();
    assert.equal(resourcesOfType(s.json, 'AWS::DynamoDB::Table').length, 0);
    for (const fn of [s.stack.apiFunction, s.stack.streamFunction]) {
      const id = logicalIdOf(s, fn);
      assert.equal(s.json.Resources[id].Properties!.Environment.Variables.OFICINA_TABLE, restored);
      const dynamo = roleStatements(s.json, functionRole(s.json, id)).filter((st) =>
        actions(st).some((a) => a.startsWith('dynamodb:') && a !== 'dynamodb:ListStreams'),
      );
      assert.ok(dynamo.length > 0);
      for (const st of dynamo) {
        const text = JSON.stringify(st.Resource);
        assert.ok(text.includes(`:table/${restored}`), `grant on ${text}`);
      }
    }
    const [, out] = Object.entries(s.json.Outputs ?? {}).find(([k]) => k === 'TableName')!;
    assert.equal(out.Value, restored);
  });

  it("feeds the stream function from the restored table's stream", () => {
    const s = onRestore();
    const [, esm] = streamMapping(s.json);
    assert.equal(esm.Properties!.EventSourceArn, streamArn);
    const sts = roleStatements(s.json, functionRole(s.json, logicalIdOf(s, s.stack.streamFunction)));
    const read = sts.find((st) => actions(st).includes('dynamodb:GetRecords'))!;
    assert.equal(read.Resource, streamArn);
  });

  it('needs both the name and a stream of that table', () => {
    const ctx = (extra: Record<string, string>) => {
      const app = new App({ context: { ...PROD_CONTEXT, ...extra } });
      return () => configFromContext((k) => app.node.tryGetContext(k));
    };
    assert.throws(ctx({ tableName: restored }), ConfigError);
    assert.throws(ctx({ tableStreamArn: streamArn }), ConfigError);
    assert.throws(ctx({ tableName: 'other-table', tableStreamArn: streamArn }), /stream of table/);
    assert.throws(ctx({ tableName: restored, tableStreamArn: 'arn:aws:sqs:sa-east-1:123456789012:q' }), /stream ARN/);
  });
});
