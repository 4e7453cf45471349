import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { Stage } from './config';

/**
 * Where Stripe sends its events (shared/billing): through CloudFront's
 * /api/* behaviour (POST allowed, every viewer header but Host forwarded,
 * so Stripe-Signature arrives) to the HTTP API's $default route and the
 * api function's mux. The stack outputs the URL to register in Stripe.
 */
export const STRIPE_WEBHOOK_PATH = '/api/billing/webhook';

/**
 * The Secrets Manager secret holding the Stripe keys, made by the operator
 * (README "Billing (Stripe)"), never by the stack: its value is JSON with
 * secret_key, publishable_key, webhook_secret and their live_ twins. The
 * functions read it at run time (shared/billing), so no key is ever in
 * the template or a function's environment.
 */
export function stripeSecretName(stage: Stage): string {
  return `oficina/${stage}/stripe`;
}

export interface BillingProps {
  readonly stage: Stage;
  /** functions/api: checkout, the webhook, the billing page. */
  readonly api: lambda.Function;
  /** functions/worker: the daily usage report (billing.usage), one Group a task. */
  readonly schedule: lambda.Function;
}

/** Stripe's part of the stack: the functions read the keys' secret. */
export class Billing extends Construct {
  readonly secret: secretsmanager.ISecret;

  constructor(scope: Construct, id: string, props: BillingProps) {
    super(scope, id);
    this.secret = secretsmanager.Secret.fromSecretNameV2(this, 'StripeSecrets', stripeSecretName(props.stage));
    for (const fn of [props.api, props.schedule]) {
      this.secret.grantRead(fn);
      fn.addEnvironment('OFICINA_STRIPE_SECRETS_ARN', this.secret.secretName);
    }
  }
}
