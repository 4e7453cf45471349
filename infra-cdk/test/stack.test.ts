/**
 * Assertion tests for the synthesised template: what the design (§4, §8)
 * and the operations brief say must be true of the cloud stack.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { App, Token } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { configFromContext } from '../lib/config';
import { sesTagName } from '../lib/mail';
import { LIVE_PATH } from '../lib/live-updates';
import { ITERATOR_AGE_ALARM_MS } from '../lib/monitoring';
import { OficinaStack, OUTPUTS } from '../lib/oficina-stack';
import { TABLE_DEFINITION_FILE } from '../lib/paths';
import { API_PATH_PATTERN, IMMUTABLE_CACHE_CONTROL, REVALIDATE_CACHE_CONTROL } from '../lib/site';
import { SPA_REWRITE_CODE } from '../lib/spa-rewrite';
import {
  actions,
  type CfnTemplate,
  functionRole,
  logicalIdOf,
  only,
  onlyOfApi,
  PROD_CONTEXT,
  referencedIds,
  resourcesOfType,
  roleStatements,
  type Statement,
  synth,
  streamMapping,
} from './support';

// CloudFront managed policy ids (fixed by AWS).
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

const dev = () => synth();
const prod = () => synth({ ...PROD_CONTEXT });

describe('environment-agnostic synth', () => {
  it('has no account, no region and no context lookups', () => {
    const s = dev();
    assert.ok(Token.isUnresolved(s.stack.account), 'account must be a token (deploy-time)');
    assert.ok(Token.isUnresolved(s.stack.region), 'region must be a token (deploy-time)');
    const assembly = s.app.synth();
    assert.equal(assembly.manifest.missing, undefined, 'a lookup would need credentials at synth time');
  });

  it('names the stack by stage and protects prod from deletion', () => {
    assert.equal(dev().stack.stackName, 'Oficina-dev');
    assert.equal(dev().stack.terminationProtection, false);
    assert.equal(prod().stack.stackName, 'Oficina-prod');
    assert.equal(prod().stack.terminationProtection, true);
  });
});

describe('DynamoDB table', () => {
  const def = JSON.parse(fs.readFileSync(TABLE_DEFINITION_FILE, 'utf8'));

  it('is built from shared/store/dynamo/table.json (keys and GSIs with projections)', () => {
    const [, table] = only(dev().json, 'AWS::DynamoDB::Table');
    const p = table.Properties!;
    assert.deepEqual(p.KeySchema, [
      { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
      { AttributeName: def.sortKey.name, KeyType: 'RANGE' },
    ]);
    const types = Object.fromEntries(p.AttributeDefinitions.map((a: any) => [a.AttributeName, a.AttributeType]));
    const expected: Record<string, string> = {
      [def.partitionKey.name]: def.partitionKey.type,
      [def.sortKey.name]: def.sortKey.type,
    };
    for (const g of def.globalSecondaryIndexes) {
      expected[g.partitionKey.name] = g.partitionKey.type;
      if (g.sortKey) expected[g.sortKey.name] = g.sortKey.type;
    }
    assert.deepEqual(types, expected);
    assert.deepEqual(
      p.GlobalSecondaryIndexes,
      def.globalSecondaryIndexes.map((g: any) => ({
        IndexName: g.indexName,
        KeySchema: [
          { AttributeName: g.partitionKey.name, KeyType: 'HASH' },
          ...(g.sortKey ? [{ AttributeName: g.sortKey.name, KeyType: 'RANGE' }] : []),
        ],
        Projection: { ProjectionType: g.projection, ...(g.nonKeyAttributes ? { NonKeyAttributes: g.nonKeyAttributes } : {}) },
      })),
    );
    assert.equal(p.LocalSecondaryIndexes, undefined);
  });

  it('matches the design: PK/SK strings, GSI1 only (the changes feed is in the base table), on-demand, NEW_AND_OLD_IMAGES stream, ttl, PITR', () => {
    dev().template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      GlobalSecondaryIndexes: [Match.objectLike({ IndexName: 'GSI1' })],
      ProvisionedThroughput: Match.absent(),
    });
  });

  it('is deletion-protected and retained in prod, disposable in dev', () => {
    const [, p] = only(prod().json, 'AWS::DynamoDB::Table');
    assert.equal(p.Properties!.DeletionProtectionEnabled, true);
    assert.equal(p.DeletionPolicy, 'Retain');
    assert.equal(p.UpdateReplacePolicy, 'Retain');
    const [, d] = only(dev().json, 'AWS::DynamoDB::Table');
    assert.equal(d.Properties!.DeletionProtectionEnabled, false);
    assert.equal(d.DeletionPolicy, 'Delete');
  });
});

describe('functions', () => {
  const fnIds = (s = dev()) => ({ api: logicalIdOf(s, s.stack.apiFunction), stream: logicalIdOf(s, s.stack.streamFunction) });

  it('are Go on provided.al2023 arm64, code from the prebuilt zip, handler bootstrap', () => {
    const s = dev();
    for (const id of Object.values(fnIds(s))) {
      const p = s.json.Resources[id].Properties!;
      assert.equal(p.Runtime, 'provided.al2023');
      assert.deepEqual(p.Architectures, ['arm64']);
      assert.equal(p.Handler, 'bootstrap');
      assert.match(p.Code.S3Key, /^[0-9a-f]{64}\.zip$/, 'a zip file asset, used as it is');
    }
  });

  it('take the code of each function from <lambdaDir>/<name>.zip', () => {
    const s = dev();
    const ids = fnIds(s);
    // The placeholder zips differ per function, so distinct keys mean distinct files.
    assert.notEqual(s.json.Resources[ids.api].Properties!.Code.S3Key, s.json.Resources[ids.stream].Properties!.Code.S3Key);
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'oficina-no-zips-'));
    try {
      const app = new App();
      assert.throws(
        () =>
          new OficinaStack(app, 'Missing', {
            config: configFromContext(() => undefined),
            lambdaDir: empty,
            webDir: empty,
          }),
        /api\.zip/,
      );
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('log to their own log groups with a retention', () => {
    for (const [s, days] of [
      [dev(), 14],
      [prod(), 90],
    ] as const) {
      for (const id of Object.values(fnIds(s))) {
        const lg = s.json.Resources[id].Properties!.LoggingConfig.LogGroup.Ref as string;
        assert.equal(s.json.Resources[lg].Type, 'AWS::Logs::LogGroup');
        assert.equal(s.json.Resources[lg].Properties!.RetentionInDays, days);
        assert.equal(s.json.Resources[lg].DeletionPolicy, s === dev() ? 'Delete' : 'Retain');
      }
    }
  });

  it("keep Lambda's own START, END and REPORT lines out of their logs, and every application line in", () => {
    const s = prod();
    const ours = resourcesOfType(s.json, 'AWS::Lambda::Function')
      .map(([, r]) => r)
      .filter((r) => r.Properties?.LoggingConfig?.LogGroup && r.Properties?.Handler !== 'index.handler'); // not CDK's own (the SPA's upload)
    assert.ok(ours.length >= Object.keys(fnIds(s)).length + 1, `the Go functions and the WebDAV image: ${ours.length}`);
    for (const fn of ours) {
      const { LogFormat, SystemLogLevel, ApplicationLogLevel } = fn.Properties!.LoggingConfig;
      assert.deepEqual({ LogFormat, SystemLogLevel, ApplicationLogLevel }, { LogFormat: 'JSON', SystemLogLevel: 'WARN', ApplicationLogLevel: 'TRACE' }, fn.Properties!.Description);
    }
  });

  it('give the api function its configuration', () => {
    const s = prod();
    const ids = fnIds(s);
    const table = logicalIdOf(s, s.stack.table);
    const configSet = logicalIdOf(s, s.stack.mail.configurationSet);
    assert.deepEqual(s.json.Resources[ids.api].Properties!.Environment.Variables, {
      OFICINA_STORE: 'dynamo',
      OFICINA_TABLE: { Ref: table },
      OFICINA_BLOBS: 's3',
      OFICINA_BUCKET: { Ref: logicalIdOf(s, s.stack.files.bucket) },
      OFICINA_MAIL: 'ses',
      OFICINA_MAIL_FROM: 'Oficina <no-reply@oficina.example>',
      OFICINA_SES_CONFIGURATION_SET: { Ref: configSet },
      OFICINA_SERVER_ADMINS: 'ana@oficina.example,bruno@oficina.example',
      OFICINA_BASE_URL: 'https://app.oficina.example',
      OFICINA_COOKIE_SECURE: 'true',
      OFICINA_LOG_FORMAT: 'json',
      // A deploy-time reference to the generated secret (origin-secret.test.ts).
      OFICINA_ORIGIN_SECRET: s.json.Resources[ids.api].Properties!.Environment.Variables.OFICINA_ORIGIN_SECRET,
      OFICINA_LONGPOLL_MAX: '2s',
      // The collector's settings for its cold start (ops.test.ts).
      GOGC: '400',
      GOMEMLIMIT: '768MiB',
      // Makes backups on request and signs their reads: the api holds no grant on the bucket (ops.test.ts).
      OFICINA_WORKER_FUNCTION: { Ref: logicalIdOf(s, s.stack.schedules.worker) },
      // The Stripe keys' secret, read at run time (billing.test.ts).
      OFICINA_STRIPE_SECRETS_ARN: 'oficina/prod/stripe',
      // The WebDAV function's own address, shown by the drive's help (webdav.test.ts).
      OFICINA_DAV_URL: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [logicalIdOf(s, s.stack.webdav.url), 'FunctionUrl'] }, 'dav/']] },
    });
    assert.match(JSON.stringify(s.json.Resources[ids.api].Properties!.Environment.Variables.OFICINA_ORIGIN_SECRET), /resolve:secretsmanager/);
  });

  it('give the stream function the store settings only, and where live updates are posted', () => {
    const s = prod();
    const env = s.json.Resources[fnIds(s).stream].Properties!.Environment.Variables;
    assert.deepEqual(Object.keys(env).sort(), ['OFICINA_LIVE_ENDPOINT', 'OFICINA_LOG_FORMAT', 'OFICINA_STORE', 'OFICINA_TABLE']);
  });

  it('use the CloudFront domain as base URL when there is no custom domain', () => {
    const s = dev();
    const dist = logicalIdOf(s, s.stack.site.distribution);
    assert.deepEqual(s.json.Resources[fnIds(s).api].Properties!.Environment.Variables.OFICINA_BASE_URL, {
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [dist, 'DomainName'] }]],
    });
  });
});

describe('HTTP API', () => {
  it('sends every request ($default route) to the api function with payload 2.0', () => {
    const s = dev();
    const api = logicalIdOf(s, s.stack.apiFunction);
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
    const httpApi = logicalIdOf(s, s.stack.httpApi);
    const [intId] = onlyOfApi(s.json, 'AWS::ApiGatewayV2::Integration', httpApi);
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY',
      PayloadFormatVersion: '2.0',
      IntegrationUri: { 'Fn::GetAtt': [api, 'Arn'] },
    });
    const [, route] = onlyOfApi(s.json, 'AWS::ApiGatewayV2::Route', httpApi);
    assert.equal(route.Properties!.RouteKey, '$default');
    assert.deepEqual(route.Properties!.Target, { 'Fn::Join': ['', ['integrations/', { Ref: intId }]] });
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'apigateway.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [api, 'Arn'] },
    });
  });

  it('has an auto-deployed $default stage with throttling and access logs', () => {
    dev().template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('\\$context\\.requestId') },
    });
  });
});

describe('stream consumer', () => {
  it('reads the table stream in bounded, bisecting, partial-failure batches with an SQS failure destination', () => {
    const s = dev();
    const table = logicalIdOf(s, s.stack.table);
    const queue = logicalIdOf(s, s.stack.streamFailureQueue);
    const [, esm] = streamMapping(s.json);
    const p = esm.Properties!;
    assert.deepEqual(p.EventSourceArn, { 'Fn::GetAtt': [table, 'StreamArn'] });
    assert.deepEqual(p.FunctionName, { Ref: logicalIdOf(s, s.stack.streamFunction) });
    assert.equal(p.StartingPosition, 'TRIM_HORIZON');
    assert.equal(p.BatchSize, 100);
    assert.equal(p.BisectBatchOnFunctionError, true);
    const patterns = (p.FilterCriteria as { Filters: { Pattern: string }[] }).Filters.map((f) => JSON.parse(f.Pattern));
    assert.equal(patterns.length, 2, 'two stream filters');
    for (const pat of patterns) {
      assert.deepEqual(pat.dynamodb.Keys.SK.S, [{ prefix: 'D#' }], 'only document items');
    }
    assert.deepEqual(patterns[0].dynamodb.NewImage.klass.S, [{ 'anything-but': ['DocumentChange'] }], 'never its own history');
    assert.deepEqual(patterns[1].dynamodb.NewImage.klass.S, [{ exists: false }], 'rules apply to leaves (test/stream-filter.test.ts)');
    assert.deepEqual(p.FunctionResponseTypes, ['ReportBatchItemFailures']);
    assert.ok(p.MaximumRetryAttempts >= 0 && p.MaximumRetryAttempts <= 20, 'retries must be bounded (not -1)');
    assert.ok(p.MaximumRecordAgeInSeconds > 0 && p.MaximumRecordAgeInSeconds < 24 * 3600, 'records must expire before the stream drops them');
    assert.deepEqual(p.DestinationConfig, { OnFailure: { Destination: { 'Fn::GetAtt': [queue, 'Arn'] } } });
  });

  it('has an encrypted, TLS-only failure queue that keeps messages 14 days', () => {
    const s = dev();
    s.template.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    s.template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('least-privilege IAM', () => {
  const dynamoActions = (sts: Statement[]) =>
    sts
      .flatMap(actions)
      .filter((a) => a.startsWith('dynamodb:'))
      .sort();

  const tableResources = (s: ReturnType<typeof dev>) => {
    const table = logicalIdOf(s, s.stack.table);
    return [
      { 'Fn::GetAtt': [table, 'Arn'] },
      { 'Fn::Join': ['', [{ 'Fn::GetAtt': [table, 'Arn'] }, '/index/*']] },
    ];
  };

  it('lets the api function do item reads/writes and transactions on the table and its indexes, nothing more', () => {
    const s = dev();
    const sts = roleStatements(s.json, functionRole(s.json, logicalIdOf(s, s.stack.apiFunction)));
    assert.deepEqual(
      dynamoActions(sts),
      [
        'dynamodb:BatchGetItem',
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
      ],
    );
    for (const st of sts.filter((x) => actions(x).some((a) => a.startsWith('dynamodb:')))) {
      assert.deepEqual(st.Resource, tableResources(s));
    }
  });

  it('lets the stream function read the stream and lists, write history/counters, forget live connections, but not mail', () => {
    const s = dev();
    const table = logicalIdOf(s, s.stack.table);
    const sts = roleStatements(s.json, functionRole(s.json, logicalIdOf(s, s.stack.streamFunction)));
    assert.deepEqual(dynamoActions(sts), [
      'dynamodb:BatchGetItem',
      // Only the items of gone or refused live-update connections (lib/live-updates.ts).
      'dynamodb:DeleteItem',
      'dynamodb:DescribeStream',
      'dynamodb:GetItem',
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
      'dynamodb:ListStreams',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    assert.deepEqual(sts.flatMap(actions).filter((a) => a.startsWith('ses:')), [], 'the stream function sends no mail');
    const streamRead = sts.find((st) => actions(st).includes('dynamodb:GetRecords'))!;
    assert.deepEqual(streamRead.Resource, { 'Fn::GetAtt': [table, 'StreamArn'] });
    const writes = sts.find((st) => actions(st).includes('dynamodb:PutItem'))!;
    assert.deepEqual(writes.Resource, tableResources(s));
    assert.ok(sts.some((st) => actions(st).includes('sqs:SendMessage')), 'it must be able to report failed batches');
  });

  it('lets the api and schedule functions (limit mail, weekly summary) send mail only from the SES identity in the configuration set', () => {
    const s = dev();
    const identity = logicalIdOf(s, s.stack.mail.identity);
    const configSet = logicalIdOf(s, s.stack.mail.configurationSet);
    for (const fn of [s.stack.apiFunction, s.stack.schedules.worker]) {
      const sts = roleStatements(s.json, functionRole(s.json, logicalIdOf(s, fn))).filter((st) =>
        actions(st).some((a) => a.startsWith('ses:')),
      );
      assert.equal(sts.length, 1);
      assert.deepEqual(actions(sts[0]).sort(), ['ses:SendEmail', 'ses:SendRawEmail']);
      const resources = sts[0].Resource as unknown[];
      assert.equal(resources.length, 2);
      const described = resources
        .map((r) => {
          const kind = /:(identity|configuration-set)\//.exec(JSON.stringify(r))?.[1];
          return `${kind} ${referencedIds(r).filter((id) => !id.startsWith('AWS::')).join(',')}`;
        })
        .sort();
      assert.deepEqual(described, [`configuration-set ${configSet}`, `identity ${identity}`]);
    }
  });

  it('gives function roles no managed policies and logs access to their own log group only', () => {
    const s = dev();
    for (const fn of [s.stack.apiFunction, s.stack.streamFunction]) {
      const fnId = logicalIdOf(s, fn);
      const role = functionRole(s.json, fnId);
      assert.equal(s.json.Resources[role].Properties!.ManagedPolicyArns, undefined);
      const logs = roleStatements(s.json, role).filter((st) => actions(st).some((a) => a.startsWith('logs:')));
      assert.deepEqual(logs.flatMap(actions).sort(), ['logs:CreateLogStream', 'logs:PutLogEvents']);
      const lg = s.json.Resources[fnId].Properties!.LoggingConfig.LogGroup.Ref;
      assert.deepEqual(referencedIds(logs[0].Resource), [lg]);
    }
  });

  it('has no wildcard actions anywhere, and no wildcard resources for the functions but ListStreams', () => {
    for (const s of [dev(), prod()]) {
      const all: Statement[] = [];
      for (const [, r] of resourcesOfType(s.json, 'AWS::IAM::Policy')) all.push(...r.Properties!.PolicyDocument.Statement);
      for (const [, r] of resourcesOfType(s.json, 'AWS::IAM::Role')) {
        for (const p of r.Properties!.Policies ?? []) all.push(...p.PolicyDocument.Statement);
      }
      for (const st of all) {
        for (const a of actions(st)) assert.ok(a !== '*' && !/^[a-z0-9-]+:\*$/.test(a), `wildcard action ${a}`);
      }
      for (const fn of [s.stack.apiFunction, s.stack.streamFunction]) {
        for (const st of roleStatements(s.json, functionRole(s.json, logicalIdOf(s, fn)))) {
          for (const a of actions(st)) assert.ok(!a.includes('*'), `function action with a wildcard: ${a}`);
          if (st.Resource === '*') assert.deepEqual(actions(st), ['dynamodb:ListStreams']);
        }
      }
    }
  });
});

describe('SPA bucket and CloudFront', () => {
  it('keeps the bucket private, encrypted and TLS-only', () => {
    const s = dev();
    s.template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      WebsiteConfiguration: Match.absent(),
    });
    s.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('lets only this distribution read the bucket, through origin access control', () => {
    const s = dev();
    const dist = logicalIdOf(s, s.stack.site.distribution);
    s.template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' },
    });
    const siteBucket = logicalIdOf(s, s.stack.site.bucket);
    const policies = resourcesOfType(s.json, 'AWS::S3::BucketPolicy').filter(([, p]) => referencedIds(p.Properties!.Bucket).includes(siteBucket));
    assert.equal(policies.length, 1);
    const [, policy] = policies[0]!;
    const read = (policy.Properties!.PolicyDocument.Statement as Statement[]).find(
      (st) => st.Effect === 'Allow' && JSON.stringify(st.Principal).includes('cloudfront.amazonaws.com'),
    );
    assert.ok(read, 'no CloudFront read grant');
    assert.deepEqual(actions(read), ['s3:GetObject']);
    assert.ok(referencedIds(read.Condition).includes(dist), 'the grant must be conditioned on this distribution');
  });

  it('serves the SPA with a default root object and SPA routes from a viewer-request function, not errorResponses', () => {
    const s = dev();
    const [, dist] = only(s.json, 'AWS::CloudFront::Distribution');
    const c = dist.Properties!.DistributionConfig;
    assert.equal(c.DefaultRootObject, 'index.html');
    assert.equal(c.CustomErrorResponses, undefined, 'errorResponses would turn API 403/404 JSON into index.html');
    const fnId = resourcesOfType(s.json, 'AWS::CloudFront::Function').find(([, f]) => f.Properties!.FunctionCode === SPA_REWRITE_CODE)![0];
    assert.deepEqual(c.DefaultCacheBehavior.FunctionAssociations, [
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [fnId, 'FunctionARN'] } },
    ]);
    assert.equal(c.DefaultCacheBehavior.ViewerProtocolPolicy, 'redirect-to-https');
    assert.equal(c.DefaultCacheBehavior.CachePolicyId, CACHING_OPTIMIZED);
    s.template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: SPA_REWRITE_CODE,
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
      AutoPublish: true,
    });
  });

  it('routes /api/* to the HTTP API uncached, with all viewer data but Host, for every method', () => {
    const s = dev();
    const httpApi = logicalIdOf(s, s.stack.httpApi);
    const [, dist] = only(s.json, 'AWS::CloudFront::Distribution');
    const c = dist.Properties!.DistributionConfig;
    const behaviors = c.CacheBehaviors as any[];
    // Live updates' WebSocket first: CloudFront takes the first pattern that matches.
    assert.deepEqual(
      behaviors.map((b) => b.PathPattern),
      [LIVE_PATH, API_PATH_PATTERN],
    );
    const api = behaviors[1];
    assert.equal(api.PathPattern, API_PATH_PATTERN);
    assert.equal(api.PathPattern, '/api/*');
    assert.equal(api.CachePolicyId, CACHING_DISABLED);
    assert.equal(api.OriginRequestPolicyId, ALL_VIEWER_EXCEPT_HOST_HEADER);
    assert.deepEqual([...api.AllowedMethods].sort(), ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT']);
    assert.equal(api.ViewerProtocolPolicy, 'https-only');
    const apiFns = (api.FunctionAssociations as any[]).map((a) => a.FunctionARN['Fn::GetAtt'][0]);
    for (const [id, f] of resourcesOfType(s.json, 'AWS::CloudFront::Function')) {
      if (f.Properties!.FunctionCode === SPA_REWRITE_CODE) assert.ok(!apiFns.includes(id), 'the SPA rewrite must not touch API requests');
    }
    const origin = (c.Origins as any[]).find((o) => o.Id === api.TargetOriginId);
    assert.deepEqual(origin.DomainName, { 'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [httpApi, 'ApiEndpoint'] }] }] });
    assert.equal(origin.CustomOriginConfig.OriginProtocolPolicy, 'https-only');
  });

  it('adds HSTS, a CSP for the Vite SPA, nosniff, a referrer policy and no framing to both behaviors', () => {
    const s = dev();
    const [policyId, policy] = only(s.json, 'AWS::CloudFront::ResponseHeadersPolicy');
    const sec = policy.Properties!.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    assert.ok(sec.StrictTransportSecurity.AccessControlMaxAgeSec >= 31536000);
    assert.equal(sec.StrictTransportSecurity.IncludeSubdomains, true);
    assert.equal(sec.ContentTypeOptions.Override, true);
    assert.equal(sec.FrameOptions.FrameOption, 'DENY');
    assert.equal(sec.ReferrerPolicy.ReferrerPolicy, 'strict-origin-when-cross-origin');
    const csp = Object.fromEntries(
      (sec.ContentSecurityPolicy.ContentSecurityPolicy as string).split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    assert.deepEqual(csp['default-src'], ["'self'"]);
    assert.deepEqual(csp['script-src'], ["'self'"], 'no inline or eval scripts');
    assert.deepEqual(csp['connect-src'], ["'self'"]);
    assert.deepEqual(csp['style-src'], ["'self'", "'unsafe-inline'"]);
    assert.deepEqual(csp['frame-ancestors'], ["'none'"]);
    assert.deepEqual(csp['object-src'], ["'none'"]);
    for (const src of ["'self'", 'data:', 'https://www.gravatar.com']) assert.ok(csp['img-src'].includes(src), `img-src lacks ${src}`);
    const [, dist] = only(s.json, 'AWS::CloudFront::Distribution');
    const c = dist.Properties!.DistributionConfig;
    assert.deepEqual(c.DefaultCacheBehavior.ResponseHeadersPolicyId, { Ref: policyId });
    for (const b of c.CacheBehaviors as any[]) assert.deepEqual(b.ResponseHeadersPolicyId, { Ref: policyId });
  });

  it('uses the custom domain and certificate when given', () => {
    const [, dist] = only(prod().json, 'AWS::CloudFront::Distribution');
    const c = dist.Properties!.DistributionConfig;
    assert.deepEqual(c.Aliases, [PROD_CONTEXT.domainName]);
    assert.deepEqual(c.ViewerCertificate, {
      AcmCertificateArn: PROD_CONTEXT.certificateArn,
      SslSupportMethod: 'sni-only',
      MinimumProtocolVersion: 'TLSv1.2_2021',
    });
    const [, devDist] = only(dev().json, 'AWS::CloudFront::Distribution');
    assert.equal(devDist.Properties!.DistributionConfig.Aliases, undefined);
    assert.equal(devDist.Properties!.DistributionConfig.ViewerCertificate, undefined);
  });

  it('uploads hashed assets (immutable) before the rest (revalidated, invalidated)', () => {
    const s = dev();
    const deployments = resourcesOfType(s.json, 'Custom::CDKBucketDeployment');
    assert.equal(deployments.length, 2);
    const [hashedId, hashed] = deployments.find(([, d]) => d.Properties!.Include)!;
    const [, rest] = deployments.find(([, d]) => !d.Properties!.Include)!;
    assert.deepEqual(hashed.Properties!.Include, ['assets/*']);
    assert.deepEqual(hashed.Properties!.Exclude, ['*']);
    assert.deepEqual(hashed.Properties!.SystemMetadata, { 'cache-control': IMMUTABLE_CACHE_CONTROL });
    assert.deepEqual(rest.Properties!.Exclude, ['assets/*']);
    assert.deepEqual(rest.Properties!.SystemMetadata, { 'cache-control': REVALIDATE_CACHE_CONTROL });
    assert.deepEqual(rest.Properties!.DistributionPaths, ['/*']);
    assert.ok(rest.DependsOn?.includes(hashedId), 'index.html must not go up before its assets');
    for (const d of [hashed, rest]) assert.equal(d.Properties!.Prune, false);
  });

  it('destroys the SPA bucket with a dev stack and keeps it in prod', () => {
    const siteBucket = (s: ReturnType<typeof dev>) => s.json.Resources[logicalIdOf(s, s.stack.site.bucket)]!;
    const d = dev();
    assert.equal(siteBucket(d).DeletionPolicy, 'Delete');
    // The SPA bucket's and the drive's (lib/files.ts): both go with a dev stack.
    assert.equal(resourcesOfType(d.json, 'Custom::S3AutoDeleteObjects').length, 2);
    const p = prod();
    assert.equal(siteBucket(p).DeletionPolicy, 'Retain');
    assert.equal(resourcesOfType(p.json, 'Custom::S3AutoDeleteObjects').length, 0);
  });
});

describe('SES', () => {
  it('verifies the mailFrom address when no domain is configured', () => {
    dev().template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'no-reply@example.com',
      ConfigurationSetAttributes: { ConfigurationSetName: Match.anyValue() },
    });
  });

  it('verifies the whole domain with DKIM when sesDomain is set, and outputs the DNS records', () => {
    const s = prod();
    s.template.hasResourceProperties('AWS::SES::EmailIdentity', {
      EmailIdentity: 'oficina.example',
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: logicalIdOf(s, s.stack.mail.configurationSet) } },
    });
    for (const i of [1, 2, 3]) assert.ok(s.json.Outputs?.[`MailDkimRecord${i}`], `no MailDkimRecord${i} output`);
  });

  it('has a configuration set with suppression and per-kind metrics on the Go adapter tag', () => {
    const s = dev();
    assert.equal(sesTagName(), 'kind');
    s.template.hasResourceProperties('AWS::SES::ConfigurationSet', {
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
      ReputationOptions: { ReputationMetricsEnabled: true },
    });
    s.template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: Match.objectLike({
        CloudWatchDestination: {
          DimensionConfigurations: [{ DimensionName: sesTagName(), DimensionValueSource: 'messageTag', DefaultDimensionValue: 'none' }],
        },
        MatchingEventTypes: Match.arrayWith(['bounce', 'complaint', 'reject']),
      }),
    });
  });
});

describe('alarms', () => {
  const alarms = (json: CfnTemplate) => resourcesOfType(json, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties!);

  it('watch errors and throttles of both functions', () => {
    const s = dev();
    for (const fn of [s.stack.apiFunction, s.stack.streamFunction]) {
      const id = logicalIdOf(s, fn);
      for (const metric of ['Errors', 'Throttles']) {
        const found = alarms(s.json).filter(
          (a) => a.Namespace === 'AWS/Lambda' && a.MetricName === metric && JSON.stringify(a.Dimensions).includes(`"${id}"`),
        );
        assert.equal(found.length, 1, `${metric} alarm for ${id}`);
        assert.equal(found[0].Threshold, 1);
      }
    }
  });

  it('watch the stream iterator age and the failure queue depth', () => {
    const s = dev();
    const fn = logicalIdOf(s, s.stack.streamFunction);
    const queue = logicalIdOf(s, s.stack.streamFailureQueue);
    const age = alarms(s.json).find((a) => a.MetricName === 'IteratorAge')!;
    assert.equal(age.Statistic, 'Maximum');
    assert.equal(age.Threshold, ITERATOR_AGE_ALARM_MS);
    assert.deepEqual(age.Dimensions, [{ Name: 'FunctionName', Value: { Ref: fn } }]);
    const dlq = alarms(s.json).find((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(a.Dimensions).includes(`"${queue}"`))!;
    assert.equal(dlq.Namespace, 'AWS/SQS');
    assert.equal(dlq.Threshold, 1);
    assert.deepEqual(dlq.Dimensions, [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queue, 'QueueName'] } }]);
  });

  it('notify one SNS topic, with an email subscription when alarmEmail is set', () => {
    const s = prod();
    const topic = logicalIdOf(s, s.stack.monitoring.topic);
    const all = alarms(s.json);
    assert.ok(all.length >= 6);
    for (const a of all) {
      assert.deepEqual(a.AlarmActions, [{ Ref: topic }]);
      assert.equal(a.TreatMissingData, 'notBreaching');
    }
    s.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: PROD_CONTEXT.alarmEmail });
    assert.equal(resourcesOfType(dev().json, 'AWS::SNS::Subscription').filter(([, r]) => r.Properties!.Protocol === 'email').length, 0);
  });
});

describe('outputs', () => {
  it('exports every documented output', () => {
    const outputs = Object.keys(dev().json.Outputs ?? {});
    for (const name of Object.values(OUTPUTS)) assert.ok(outputs.includes(name), `missing output ${name}`);
  });
});
