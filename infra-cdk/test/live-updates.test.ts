/**
 * Issue 25: live updates in the cloud (lib/live-updates.ts). API Gateway's
 * WebSocket API with $connect, $disconnect and $default on functions/live,
 * reached through CloudFront at /api/_live; connections kept in the table
 * with a TTL; execute-api:ManageConnections on this API only, for the live
 * and stream functions only.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as vm from 'node:vm';
import { ORIGIN_SECRET_HEADER } from '../lib/edge-headers';
import { LIVE_PATH, LIVE_ROUTES, LIVE_STAGE, LIVE_THROTTLE, LIVE_VIEWER_CODE } from '../lib/live-updates';
import { API_PATH_PATTERN } from '../lib/site';
import { API_TABLE_ACTIONS } from '../lib/table-access';
import { loadTableDefinition } from '../lib/table-definition';
import { actions, type CfnResource, functionRole, logicalIdOf, only, PROD_CONTEXT, REPO_DIR, resourcesOfType, roleStatements, synth } from './support';

const stacks = () => [synth(), synth({ ...PROD_CONTEXT })];

function liveApi(s: ReturnType<typeof synth>): [string, CfnResource] {
  const apis = resourcesOfType(s.json, 'AWS::ApiGatewayV2::Api').filter(([, r]) => r.Properties!.ProtocolType === 'WEBSOCKET');
  assert.equal(apis.length, 1, 'one WebSocket API');
  return apis[0]!;
}

const ofApi = (s: ReturnType<typeof synth>, type: string, apiId: string) =>
  resourcesOfType(s.json, type).filter(([, r]) => JSON.stringify(r.Properties!.ApiId) === JSON.stringify({ Ref: apiId }));

describe('live updates: the WebSocket API', () => {
  it('sends $connect, $disconnect and $default to functions/live', () => {
    const s = synth();
    const [apiId] = liveApi(s);
    const fn = logicalIdOf(s, s.stack.live.fn);
    const integrations = ofApi(s, 'AWS::ApiGatewayV2::Integration', apiId);
    assert.equal(integrations.length, 1);
    const [intId, integration] = integrations[0]!;
    assert.equal(integration.Properties!.IntegrationType, 'AWS_PROXY');
    assert.ok(JSON.stringify(integration.Properties!.IntegrationUri).includes(`"${fn}","Arn"`), 'the integration invokes functions/live');
    const routes = ofApi(s, 'AWS::ApiGatewayV2::Route', apiId);
    assert.deepEqual(routes.map(([, r]) => r.Properties!.RouteKey).sort(), [...LIVE_ROUTES].sort());
    for (const [, r] of routes) assert.deepEqual(r.Properties!.Target, { 'Fn::Join': ['', ['integrations/', { Ref: intId }]] });
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'apigateway.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [fn, 'Arn'] },
    });
  });

  it('has an auto-deployed stage with a throttle', () => {
    const s = synth();
    const [apiId] = liveApi(s);
    const [[, stage]] = ofApi(s, 'AWS::ApiGatewayV2::Stage', apiId) as [[string, CfnResource]];
    assert.equal(stage.Properties!.StageName, LIVE_STAGE);
    assert.equal(stage.Properties!.AutoDeploy, true);
    assert.deepEqual(stage.Properties!.DefaultRouteSettings, {
      ThrottlingBurstLimit: LIVE_THROTTLE.burstLimit,
      ThrottlingRateLimit: LIVE_THROTTLE.rateLimit,
    });
  });

  it('is reached through CloudFront at /api/_live, before /api/*, with the origin secret and no cache', () => {
    for (const s of stacks()) {
      const [apiId] = liveApi(s);
      const [, dist] = only(s.json, 'AWS::CloudFront::Distribution');
      const c = dist.Properties!.DistributionConfig;
      const paths = (c.CacheBehaviors as any[]).map((b) => b.PathPattern);
      assert.ok(paths.indexOf(LIVE_PATH) >= 0 && paths.indexOf(LIVE_PATH) < paths.indexOf(API_PATH_PATTERN), `behaviors in order: ${paths}`);
      const behavior = (c.CacheBehaviors as any[]).find((b) => b.PathPattern === LIVE_PATH);
      assert.equal(behavior.CachePolicyId, '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', 'CachingDisabled');
      assert.equal(behavior.OriginRequestPolicyId, 'b689b0a8-53d0-40ab-baf2-68738e2966ac', 'AllViewerExceptHostHeader: cookies, query, WebSocket headers');
      assert.equal(behavior.ViewerProtocolPolicy, 'https-only');
      const origin = (c.Origins as any[]).find((o) => o.Id === behavior.TargetOriginId);
      assert.ok(JSON.stringify(origin.DomainName).includes(`{"Ref":"${apiId}"}`), 'the origin is the WebSocket API');
      assert.equal(origin.CustomOriginConfig.OriginProtocolPolicy, 'https-only');
      assert.equal(origin.OriginCustomHeaders[0].HeaderName, ORIGIN_SECRET_HEADER);
      const fns = resourcesOfType(s.json, 'AWS::CloudFront::Function');
      const [viewerId] = fns.find(([, f]) => f.Properties!.FunctionCode === LIVE_VIEWER_CODE)!;
      assert.deepEqual(behavior.FunctionAssociations, [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [viewerId, 'FunctionARN'] } }]);
    }
  });

  it('rewrites /api/_live to the stage and sets the viewer address at the edge', () => {
    const sandbox: { handler?: (e: unknown) => { uri: string; headers: Record<string, { value: string }>; querystring: unknown } } = {};
    vm.runInNewContext(`${LIVE_VIEWER_CODE}\nthis.handler = handler;`, sandbox);
    const out = sandbox.handler!({
      viewer: { ip: '203.0.113.9' },
      request: { uri: LIVE_PATH, method: 'GET', headers: { 'x-oficina-viewer-address': { value: '10.0.0.1' } }, querystring: { xsrf: { value: 'x' } } },
    });
    assert.equal(out.uri, `/${LIVE_STAGE}`);
    assert.equal(out.headers['x-oficina-viewer-address']?.value, '203.0.113.9');
    assert.equal(JSON.stringify(out.querystring), JSON.stringify({ xsrf: { value: 'x' } }), 'the XSRF token goes on');
    assert.ok(Buffer.byteLength(LIVE_VIEWER_CODE) < 10 * 1024);
  });
});

describe('live updates: the functions', () => {
  it('give functions/live the API settings and the management endpoint, and the stream function the endpoint', () => {
    const s = synth({ ...PROD_CONTEXT });
    const [apiId] = liveApi(s);
    const env = s.json.Resources[logicalIdOf(s, s.stack.live.fn)]!.Properties!.Environment.Variables;
    const endpoint = env.OFICINA_LIVE_ENDPOINT;
    assert.ok(JSON.stringify(endpoint).includes(`{"Ref":"${apiId}"}`) && JSON.stringify(endpoint).endsWith(`/${LIVE_STAGE}"]]}`), JSON.stringify(endpoint));
    assert.equal(env.OFICINA_STORE, 'dynamo');
    assert.equal(env.OFICINA_COOKIE_SECURE, 'true');
    assert.ok(env.OFICINA_BASE_URL && env.OFICINA_ORIGIN_SECRET, 'the origin check needs the site URL and the secret');
    const stream = s.json.Resources[logicalIdOf(s, s.stack.streamFunction)]!.Properties!.Environment.Variables;
    assert.deepEqual(stream.OFICINA_LIVE_ENDPOINT, endpoint);
  });

  it('grant execute-api:ManageConnections on this API and stage only, to the live and stream functions only', () => {
    const s = synth();
    const [apiId] = liveApi(s);
    const live = logicalIdOf(s, s.stack.live.fn);
    const stream = logicalIdOf(s, s.stack.streamFunction);
    for (const [fnId, fn] of resourcesOfType(s.json, 'AWS::Lambda::Function')) {
      const role = (fn.Properties!.Role as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt']?.[0];
      const sts = role ? roleStatements(s.json, role).filter((st) => actions(st).includes('execute-api:ManageConnections')) : [];
      if (fnId !== live && fnId !== stream) {
        assert.equal(sts.length, 0, `${fnId} must not manage connections`);
        continue;
      }
      assert.equal(sts.length, 1, fnId);
      const st = sts[0]!;
      assert.deepEqual(actions(st), ['execute-api:ManageConnections']);
      const resource = JSON.stringify(st.Resource);
      assert.ok(resource.includes(`{"Ref":"${apiId}"}`), `scoped to the WebSocket API: ${resource}`);
      assert.ok(resource.includes(`/${LIVE_STAGE}/*/@connections/*`), `scoped to its stage's connections: ${resource}`);
      assert.ok(!resource.includes('"*"'), 'no wildcard resource');
    }
  });

  it('let functions/live use the table as the API does, and nothing else of the account', () => {
    const s = synth();
    const sts = roleStatements(s.json, functionRole(s.json, logicalIdOf(s, s.stack.live.fn)));
    const dynamo = [...new Set(sts.flatMap(actions).filter((a) => a.startsWith('dynamodb:')))].sort();
    assert.deepEqual(dynamo, [...API_TABLE_ACTIONS].sort());
    assert.deepEqual(sts.flatMap(actions).filter((a) => a.startsWith('ses:') || a.startsWith('s3:')), []);
  });
});

describe('live updates: the TTL', () => {
  it('is the table TTL attribute the Go items carry (shared/live/cloud.go)', () => {
    const def = loadTableDefinition();
    const go = fs.readFileSync(path.join(REPO_DIR, 'shared', 'live', 'cloud.go'), 'utf8');
    const m = /attrTTL\s*=\s*"([^"]+)"/.exec(go);
    assert.ok(m, 'cloud.go names its TTL attribute');
    assert.equal(m[1], def.timeToLiveAttribute);
    const s = synth();
    s.template.hasResourceProperties('AWS::DynamoDB::Table', { TimeToLiveSpecification: { AttributeName: m[1], Enabled: true } });
    // The stream's filter (SK begins with D#) keeps connection and subscription items from the consumer.
    assert.match(go, /subPrefix\s*=\s*"LIVE#"/);
  });
});
