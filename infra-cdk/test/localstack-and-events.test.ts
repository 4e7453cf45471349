/**
 * Cross-checks between the stack and the files that depend on it without
 * importing it: localstack/ (deploy.sh reads stack outputs by name, the
 * compose file lists the emulated services) and events/ (sample events the
 * Go handlers are tested with).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { LAMBDA_FUNCTIONS } from '../lib/paths';
import { loadScheduledJobs } from '../lib/schedules';
import { loadTableDefinition } from '../lib/table-definition';
import { REPO_DIR, synth } from './support';

const read = (...p: string[]) => fs.readFileSync(path.join(REPO_DIR, ...p), 'utf8');

/** The LocalStack services each CloudFormation namespace needs. */
const SERVICES_FOR: Record<string, string[]> = {
  'AWS::ApiGatewayV2': ['apigatewayv2'],
  'AWS::CloudFront': ['cloudfront'],
  'AWS::CloudWatch': ['cloudwatch'],
  'AWS::DynamoDB': ['dynamodb', 'dynamodbstreams'],
  'AWS::Events': ['events'],
  'AWS::IAM': ['iam'],
  'AWS::Lambda': ['lambda'],
  'AWS::Logs': ['logs'],
  'AWS::S3': ['s3'],
  'AWS::Scheduler': ['scheduler'],
  'AWS::SecretsManager': ['secretsmanager'],
  'AWS::SES': ['ses'],
  'AWS::SNS': ['sns'],
  'AWS::SQS': ['sqs'],
  'Custom::CDKBucketDeployment': ['lambda', 's3'],
  'Custom::S3AutoDeleteObjects': ['lambda', 's3'],
};

describe('localstack/', () => {
  const deploy = read('localstack', 'deploy.sh');
  const compose = read('localstack', 'docker-compose.yml');

  it('deploy.sh reads only outputs the stack has', () => {
    const used = [...deploy.matchAll(/\boutput ([A-Za-z0-9]+)\)/g)].map((m) => m[1]);
    assert.ok(used.length >= 4, `expected deploy.sh to read outputs, found ${used}`);
    const outputs = Object.keys(synth().json.Outputs ?? {});
    for (const name of used) assert.ok(outputs.includes(name), `deploy.sh reads output ${name}, which the stack lacks`);
  });

  it('deploy.sh deploys the stack by the name the app gives it', () => {
    assert.match(deploy, /STACK="Oficina-\$\{STAGE\}"/);
    assert.match(deploy, /STAGE=\$\{STAGE:-dev\}/);
    assert.equal(synth().stack.stackName, 'Oficina-dev');
    assert.match(deploy, /-c stage="\$STAGE"/);
  });

  it('deploy.sh uses the cdklocal the workspace installs', () => {
    const pkg = JSON.parse(read('infra-cdk', 'package.json'));
    assert.ok(pkg.devDependencies['aws-cdk-local'], 'aws-cdk-local must be a devDependency');
    assert.ok(pkg.devDependencies['aws-cdk'], 'cdklocal drives the aws-cdk CLI');
    assert.match(deploy, /node_modules\/\.bin\/cdklocal/);
  });

  it('the compose file enables every service the template uses', () => {
    const m = /SERVICES:\s*([a-z0-9,]+)/.exec(compose);
    assert.ok(m, 'no SERVICES in docker-compose.yml');
    const enabled = new Set(m[1].split(','));
    for (const s of ['cloudformation', 'ssm', 'sts', 's3', 'iam']) assert.ok(enabled.has(s), `${s} is needed by cdk bootstrap/deploy`);
    const contexts: Array<Record<string, string>> = [{}, { stage: 'prod', sesDomain: 'oficina.example', alarmEmail: 'ops@oficina.example' }];
    for (const ctx of contexts) {
      const types = new Set(Object.values(synth(ctx).json.Resources).map((r) => r.Type));
      for (const type of types) {
        const ns = type.startsWith('Custom::') ? type : type.split('::').slice(0, 2).join('::');
        const needed = SERVICES_FOR[ns];
        assert.ok(needed, `no LocalStack service known for ${type}; add it to SERVICES_FOR and the compose file`);
        for (const s of needed) assert.ok(enabled.has(s), `${type} needs LocalStack service ${s}`);
      }
    }
  });

  it('the compose file publishes the edge port on loopback only', () => {
    assert.match(compose, /"127\.0\.0\.1:4566:4566"/);
  });
});

describe('events/', () => {
  const event = (name: string) => JSON.parse(read('events', name));

  it('has an API Gateway HTTP API (payload 2.0, $default route) request under /api/', () => {
    const e = event('apigw-v2-http-request.json');
    assert.equal(e.version, '2.0');
    assert.equal(e.routeKey, '$default');
    assert.equal(e.requestContext.routeKey, '$default');
    assert.equal(e.requestContext.stage, '$default');
    assert.match(e.rawPath, /^\/api\//);
    assert.equal(e.requestContext.http.path, e.rawPath);
    assert.ok(Array.isArray(e.cookies));
    assert.equal(typeof e.isBase64Encoded, 'boolean');
    for (const h of Object.keys(e.headers)) assert.equal(h, h.toLowerCase(), 'HTTP API lower-cases header names');
  });

  it('has a DynamoDB stream batch whose keys and view type match table.json', () => {
    const def = loadTableDefinition();
    const e = event('dynamodb-stream-batch.json');
    assert.ok(e.Records.length >= 3);
    const names = new Set(e.Records.map((r: any) => r.eventName));
    assert.deepEqual([...names].sort(), ['INSERT', 'MODIFY', 'REMOVE']);
    for (const r of e.Records) {
      assert.equal(r.eventSource, 'aws:dynamodb');
      assert.match(r.eventSourceARN, /^arn:aws:dynamodb:[a-z0-9-]+:\d{12}:table\/[^/]+\/stream\/.+/);
      assert.equal(r.dynamodb.StreamViewType, def.streamViewType);
      const keyNames = Object.keys(r.dynamodb.Keys).sort();
      assert.deepEqual(keyNames, [def.partitionKey.name, def.sortKey!.name].sort());
      assert.ok(r.dynamodb.Keys[def.partitionKey.name][def.partitionKey.type], 'key attribute type');
      if (r.eventName !== 'INSERT') assert.ok(r.dynamodb.OldImage, `${r.eventName} needs OldImage with ${def.streamViewType}`);
      if (r.eventName !== 'REMOVE') assert.ok(r.dynamodb.NewImage, `${r.eventName} needs NewImage`);
    }
    const ttlRemove = e.Records.find((r: any) => r.eventName === 'REMOVE');
    assert.deepEqual(ttlRemove.userIdentity, { type: 'Service', principalId: 'dynamodb.amazonaws.com' });
    assert.ok(ttlRemove.dynamodb.OldImage[def.timeToLiveAttribute!], 'a TTL expiry carries the ttl attribute');
  });

  it('has an EventBridge scheduled event naming a registered job, as the rules send it', () => {
    const e = event('eventbridge-scheduled.json');
    assert.equal(e['detail-type'], 'Scheduled Event');
    assert.equal(e.source, 'aws.events');
    assert.deepEqual(e.resources, []);
    assert.ok(
      loadScheduledJobs().some((j) => j.name === e.detail.job),
      `detail.job ${e.detail.job} is not in functions/schedule/jobs.json`,
    );
  });
});

describe('Makefile', () => {
  it('builds a zip for every function the stack deploys', () => {
    const file = path.join(REPO_DIR, 'Makefile');
    const makefile = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const m = /^LAMBDA_FUNCTIONS\s*[?:]?=\s*(.+)$/m.exec(makefile);
    if (!m) return; // the lambdas target is not there yet (infra-cdk/README.md has it)
    assert.deepEqual(m[1].trim().split(/\s+/).sort(), [...LAMBDA_FUNCTIONS].sort());
  });
});
