import { Duration, Stack } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** Stream records older than this mean the consumer is falling behind (stream retention is 24 h). */
export const ITERATOR_AGE_ALARM_MS = 5 * 60 * 1000;

export interface MonitoringProps {
  readonly alarmEmail?: string;
}

/**
 * Alarms that page someone (through one SNS topic, with an optional email
 * subscription): function errors and throttles, the stream consumer's
 * iterator age, anything in the stream's failure queue, API 5xx, and SES
 * reputation. Missing data is "not breaching": an idle dev stack is quiet.
 */
export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  private readonly action: cwActions.SnsAction;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'AlarmTopic', { displayName: 'Oficina alarms', enforceSSL: true });
    // enforceSSL gives the topic a resource policy (a Deny without TLS),
    // which replaces SNS's default one; with no statement allowing it,
    // CloudWatch alarms of this account could not publish. Allow exactly
    // them.
    const { account, region, partition } = Stack.of(this);
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AllowCloudWatchAlarmsToPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': account },
          ArnLike: { 'aws:SourceArn': `arn:${partition}:cloudwatch:${region}:${account}:alarm:*` },
        },
      }),
    );
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    this.action = new cwActions.SnsAction(this.topic);
  }

  private alarm(id: string, props: cloudwatch.AlarmProps): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      ...props,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    return alarm;
  }

  /** Errors and throttles of a function, summed over 5 minutes. */
  watchFunction(name: string, fn: lambda.IFunction): void {
    this.alarm(`${name}Errors`, {
      alarmDescription: `${name} function: invocations ended in an error`,
      metric: fn.metricErrors({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    this.alarm(`${name}Throttles`, {
      alarmDescription: `${name} function: invocations throttled (concurrency limit)`,
      metric: fn.metricThrottles({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
  }

  /** The stream consumer: how old the newest record it got was, and its failure queue. */
  watchStreamConsumer(fn: lambda.IFunction, failureQueue: sqs.IQueue): void {
    this.alarm('StreamIteratorAge', {
      alarmDescription: 'stream function: falling behind the table stream (records lost after 24 h)',
      metric: fn.metric('IteratorAge', { period: Duration.minutes(5), statistic: cloudwatch.Stats.MAXIMUM }),
      threshold: ITERATOR_AGE_ALARM_MS,
      evaluationPeriods: 2,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
    this.alarm('StreamFailures', {
      alarmDescription: 'stream function: batches gave up after retries; see the failure queue and replay them',
      metric: failureQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
  }

  /** 5xx answered by the HTTP API (the function's own 500s and integration failures). */
  watchHttpApi(api: apigwv2.HttpApi): void {
    this.alarm('Api5xx', {
      alarmDescription: 'HTTP API: 5xx responses',
      metric: api.metricServerError({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
      threshold: 5,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
  }

  /**
   * SES account reputation: AWS reviews an account at 5% bounces / 0.1%
   * complaints and may pause sending above 10% / 0.5%.
   */
  watchMailReputation(): void {
    this.alarm('MailBounceRate', {
      alarmDescription: 'SES: bounce rate at the review threshold (5%)',
      metric: new cloudwatch.Metric({
        namespace: 'AWS/SES',
        metricName: 'Reputation.BounceRate',
        period: Duration.hours(1),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 0.05,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    this.alarm('MailComplaintRate', {
      alarmDescription: 'SES: complaint rate at the review threshold (0.1%)',
      metric: new cloudwatch.Metric({
        namespace: 'AWS/SES',
        metricName: 'Reputation.ComplaintRate',
        period: Duration.hours(1),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      threshold: 0.001,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
  }
}
