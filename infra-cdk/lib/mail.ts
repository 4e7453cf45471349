import * as fs from 'node:fs';
import * as path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as ses from 'aws-cdk-lib/aws-ses';
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

/**
 * The SES side of the mail port: one identity (the whole sesDomain with
 * Easy DKIM when given, else just the mailFrom address) and one
 * configuration set with bounce/complaint suppression, reputation metrics
 * and CloudWatch metrics per message kind. grantSend lets a function send
 * from that identity in that configuration set, and nothing else.
 */
export class Mail extends Construct {
  readonly identity: ses.EmailIdentity;
  readonly configurationSet: ses.ConfigurationSet;
  /** The address part of mailFrom. */
  readonly fromAddress: string;
  readonly isDomainIdentity: boolean;

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

  /** Allows grantee to send through this identity and configuration set only. */
  grantSend(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipal({
      grantee,
      actions: [...SES_SEND_ACTIONS],
      resourceArns: [this.identity.emailIdentityArn, this.configurationSetArn],
    });
  }
}
