/**
 * Issue 15 §7: Stripe's parts of the stack. The keys live in a Secrets
 * Manager secret the operator makes (never in the template or an
 * environment), read at run time by the api and schedule functions; the
 * webhook reaches the api function through CloudFront's /api/* and the
 * $default route; the daily usage report is an EventBridge rule.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { API_PATH_PATTERN } from '../lib/site';
import { STRIPE_WEBHOOK_PATH, stripeSecretName } from '../lib/billing';
import { OUTPUTS } from '../lib/oficina-stack';
import {
  actions,
  functionRole,
  logicalIdOf,
  only,
  onlyOfApi,
  PROD_CONTEXT,
  resourcesOfType,
  roleStatements,
  synth,
} from './support';

const stacks = () => [synth(), synth({ ...PROD_CONTEXT })];

describe('billing (Stripe)', () => {
  it('gives the api and schedule functions the secret by name, and no key', () => {
    for (const s of stacks()) {
      const stage = s.stack.node.tryGetContext('stage') === 'prod' ? 'prod' : 'dev';
      for (const fn of [s.stack.apiFunction, s.stack.schedules.worker]) {
        const env = s.json.Resources[logicalIdOf(s, fn)].Properties!.Environment.Variables;
        assert.equal(env.OFICINA_STRIPE_SECRETS_ARN, stripeSecretName(stage));
        for (const k of Object.keys(env)) {
          assert.ok(!/^OFICINA_STRIPE_(LIVE_)?(SECRET_KEY|WEBHOOK_SECRET|PUBLISHABLE_KEY)$/.test(k), `${k} in the environment`);
        }
      }
      const stream = s.json.Resources[logicalIdOf(s, s.stack.streamFunction)].Properties!.Environment.Variables;
      assert.equal(stream.OFICINA_STRIPE_SECRETS_ARN, undefined, 'the stream consumer has no business with Stripe');
      const text = JSON.stringify(s.json);
      assert.doesNotMatch(text, /sk_(test|live)_|whsec_|rk_(test|live)_/, 'a Stripe key in the template');
    }
  });

  it('lets only the api and schedule functions read that one secret', () => {
    for (const s of stacks()) {
      const stage = s.stack.node.tryGetContext('stage') === 'prod' ? 'prod' : 'dev';
      const reads = (fn: Parameters<typeof logicalIdOf>[1]) =>
        roleStatements(s.json, functionRole(s.json, logicalIdOf(s, fn))).filter((st) =>
          actions(st).some((a) => a.startsWith('secretsmanager:')),
        );
      for (const fn of [s.stack.apiFunction, s.stack.schedules.worker]) {
        const st = reads(fn);
        assert.equal(st.length, 1);
        assert.deepEqual(actions(st[0]).sort(), ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']);
        assert.match(JSON.stringify(st[0].Resource), new RegExp(`secret:oficina/${stage}/stripe-\\?\\?\\?\\?\\?\\?`));
      }
      assert.equal(reads(s.stack.streamFunction).length, 0);
      // The stack makes no secret for Stripe: the only one is the origin secret.
      assert.equal(resourcesOfType(s.json, 'AWS::SecretsManager::Secret').length, 1);
    }
  });

  it('reaches the webhook through CloudFront (POST, Stripe-Signature forwarded) and the $default route', () => {
    const s = synth();
    assert.ok(STRIPE_WEBHOOK_PATH.startsWith(API_PATH_PATTERN.replace('*', '')));
    const [, dist] = only(s.json, 'AWS::CloudFront::Distribution');
    const behavior = (dist.Properties!.DistributionConfig.CacheBehaviors as any[]).find((b) => b.PathPattern === API_PATH_PATTERN);
    assert.ok(behavior.AllowedMethods.includes('POST'));
    // The managed AllViewerExceptHostHeader policy: Stripe-Signature reaches the function.
    assert.equal(behavior.OriginRequestPolicyId, 'b689b0a8-53d0-40ab-baf2-68738e2966ac');
    const [, route] = onlyOfApi(s.json, 'AWS::ApiGatewayV2::Route', logicalIdOf(s, s.stack.httpApi));
    assert.equal(route.Properties!.RouteKey, '$default');
    const outputs = s.json.Outputs as Record<string, { Value: unknown }>;
    assert.match(JSON.stringify(outputs[OUTPUTS.stripeWebhookUrl].Value), /\/api\/billing\/webhook/);
  });

  it('reports usage daily through the billing.usage rule', () => {
    const s = synth();
    const rule = s.stack.schedules.rules['billing.usage'];
    assert.ok(rule, 'no billing.usage rule');
    const p = s.json.Resources[logicalIdOf(s, rule)].Properties!;
    assert.equal(p.ScheduleExpression, 'cron(15 0 * * ? *)');
    assert.equal(p.State, 'ENABLED');
  });
});
