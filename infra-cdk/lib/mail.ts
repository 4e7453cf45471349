import * as fs from 'node:fs';
import * as path from 'node:path';
import { Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { parseMailbox } from './config';
import { REPO_ROOT } from './paths';
import { SES_SEND_ACTIONS } from './table-access';

/**
 * The SES message tag the Go adapter puts the mail kind in, read from
 * shared/mail/ses/ses.go so the two cannot disagree.
 */
export function sesTagName(file = path.join(REPO_ROOT, 'shared', 'mail', 'ses', 'ses.go')): string {
  const m = /const\s+TagName\s*=\s*"([A-Za-z0-9_-]+)"/.exec(fs.readFileSync(file, 'utf8'));
  if (!m) throw new Error(`${file}: no \`const TagName = "..."\``);
  return m[1];
}

export interface MailProps {
  readonly mailFrom: string;
  readonly sesDomain?: string;
}

/** The SES events the feedback topic carries to the app. */
export const FEEDBACK_EVENTS = [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT];

/**
 * The SES side of the mail port: one identity (the whole sesDomain with
 * Easy DKIM when given, else just the mailFrom address) and one
 * configuration set with bounce/complaint suppression, reputation metrics
 * and CloudWatch metrics per message kind. grantSend lets a function send
 * from that identity in that configuration set, and nothing else.
 *
 * Bounces and complaints also go to the feedback topic (SNS), which
 * deliverFeedback subscribes a function to (the worker): it puts the
 * addresses on the app's suppression list, which every mail path checks
 * and the member list shows (shared/mail, shared/mail/ses).
 */
export class Mail extends Construct {
  readonly identity: ses.EmailIdentity;
  readonly configurationSet: ses.ConfigurationSet;
  /** The address part of mailFrom. */
  readonly fromAddress: string;
  readonly isDomainIdentity: boolean;
  /** SES's bounce and complaint events, for the app. */
  readonly feedbackTopic: sns.Topic;

  constructor(scope: Construct, id: string, props: MailProps) {
    super(scope, id);
    const from = parseMailbox(props.mailFrom);
    if (!from) throw new Error(`mailFrom ${props.mailFrom} is not an address`);
    this.fromAddress = from.address;
    this.isDomainIdentity = props.sesDomain !== undefined;

    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      reputationMetrics: true,
      sendingEnabled: true,
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      tlsPolicy: ses.ConfigurationSetTlsPolicy.REQUIRE,
    });
    this.configurationSet.addEventDestination('Metrics', {
      destination: ses.EventDestination.cloudWatchDimensions([
        { name: sesTagName(), source: ses.CloudWatchDimensionSource.MESSAGE_TAG, defaultValue: 'none' },
      ]),
      events: [
        ses.EmailSendingEvent.SEND,
        ses.EmailSendingEvent.DELIVERY,
        ses.EmailSendingEvent.BOUNCE,
        ses.EmailSendingEvent.COMPLAINT,
        ses.EmailSendingEvent.REJECT,
        ses.EmailSendingEvent.RENDERING_FAILURE,
        ses.EmailSendingEvent.DELIVERY_DELAY,
      ],
    });

    this.feedbackTopic = new sns.Topic(this, 'Feedback', { displayName: 'Oficina mail bounces and complaints', enforceSSL: true });
    // enforceSSL's resource policy replaces SNS's default: allow exactly
    // this configuration set's event destination to publish.
    const { account, region, partition } = Stack.of(this);
    this.feedbackTopic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AllowSesEventsToPublish',
        principals: [new iam.ServicePrincipal('ses.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.feedbackTopic.topicArn],
        conditions: {
          StringEquals: {
            'aws:SourceAccount': account,
            'aws:SourceArn': `arn:${partition}:ses:${region}:${account}:configuration-set/${this.configurationSet.configurationSetName}`,
          },
        },
      }),
    );
    this.configurationSet.addEventDestination('Feedback', {
      destination: ses.EventDestination.snsTopic(this.feedbackTopic),
      events: FEEDBACK_EVENTS,
    });

    this.identity = new ses.EmailIdentity(this, 'Identity', {
      identity: props.sesDomain ? ses.Identity.domain(props.sesDomain) : ses.Identity.email(from.address),
      configurationSet: this.configurationSet,
    });
  }

  /** The configuration set's ARN (SESv2 authorises SendEmail on it too). */
  get configurationSetArn(): string {
    return Stack.of(this).formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSet.configurationSetName,
    });
  }

  /**
   * Subscribes fn to the feedback topic. SNS invokes it asynchronously:
   * Lambda retries a failed report twice, then puts it on the returned
   * queue, which also takes what SNS itself could not deliver (alarm it).
   */
  deliverFeedback(fn: lambda.Function): sqs.Queue {
    const failures = new sqs.Queue(this, 'FeedbackFailureQueue', {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.feedbackTopic.addSubscription(new subscriptions.LambdaSubscription(fn, { deadLetterQueue: failures }));
    fn.configureAsyncInvoke({ retryAttempts: 2, maxEventAge: Duration.hours(6), onFailure: new destinations.SqsDestination(failures) });
    return failures;
  }

  /** Allows grantee to send through this identity and configuration set only. */
  grantSend(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: [...SES_SEND_ACTIONS],
      resourceArns: [this.identity.emailIdentityArn, this.configurationSetArn],
    });
  }
}
