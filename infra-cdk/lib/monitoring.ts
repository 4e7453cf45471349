import { Duration, Stack } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
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
  /** Every alarm made here, for the dashboard's status widget. */
  readonly alarms: cloudwatch.Alarm[] = [];

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
    this.alarms.push(alarm);
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

  /** Messages in a dead-letter queue: work that failed for good. */
  watchDeadLetters(id: string, description: string, queue: sqs.IQueue): void {
    this.alarm(id, {
      alarmDescription: description,
      metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: cloudwatch.Stats.MAXIMUM }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
  }

  /**
   * The table: requests throttled (on-demand tables throttle past their
   * previous peak doubled, or a hot key) and DynamoDB's own errors.
   */
  watchTable(table: dynamodb.ITable): void {
    this.alarm('TableThrottles', {
      alarmDescription: 'DynamoDB: requests throttled (a hot key, or traffic past double the previous peak)',
      metric: new cloudwatch.MathExpression({
        expression: 'r + w',
        usingMetrics: {
          r: table.metric('ReadThrottleEvents', { period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
          w: table.metric('WriteThrottleEvents', { period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
        },
        period: Duration.minutes(5),
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    this.alarm('TableSystemErrors', {
      alarmDescription: 'DynamoDB: system errors (HTTP 500) on the table',
      // The calls shared/store/dynamo makes (an alarm's expression takes 10 metrics at most).
      metric: table.metricSystemErrorsForOperations({
        operations: [
          dynamodb.Operation.GET_ITEM,
          dynamodb.Operation.BATCH_GET_ITEM,
          dynamodb.Operation.QUERY,
          dynamodb.Operation.PUT_ITEM,
          dynamodb.Operation.UPDATE_ITEM,
          dynamodb.Operation.DELETE_ITEM,
          dynamodb.Operation.TRANSACT_WRITE_ITEMS,
          dynamodb.Operation.GET_RECORDS,
        ],
        period: Duration.minutes(5),
        statistic: cloudwatch.Stats.SUM,
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
  }

  /** One dashboard with the key figures of every part. */
  dashboard(p: DashboardParts): cloudwatch.Dashboard {
    const period = Duration.minutes(5);
    const fns: Array<[string, lambda.IFunction]> = [
      ['api', p.api],
      ['stream', p.stream],
      ['dispatcher', p.dispatcher],
      ['worker', p.worker],
      ['webdav', p.webdav],
      ['live', p.live],
    ];
    const perFn = (title: string, m: (fn: lambda.IFunction) => cloudwatch.IMetric) =>
      new cloudwatch.GraphWidget({ title, width: 8, left: fns.map(([, fn]) => m(fn)) });
    const d = new cloudwatch.Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(24) });
    d.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'HTTP API: requests, 4xx, 5xx',
        width: 8,
        left: [p.httpApi.metricCount({ period }), p.httpApi.metricClientError({ period }), p.httpApi.metricServerError({ period })],
      }),
      new cloudwatch.GraphWidget({ title: 'HTTP API: latency p50 / p99 (ms)', width: 8, left: [p.httpApi.metricLatency({ period, statistic: 'p50' }), p.httpApi.metricLatency({ period, statistic: 'p99' })] }),
      new cloudwatch.GraphWidget({
        title: 'DynamoDB: consumed RCU / WCU',
        width: 8,
        left: [p.table.metricConsumedReadCapacityUnits({ period }), p.table.metricConsumedWriteCapacityUnits({ period })],
      }),
    );
    d.addWidgets(
      perFn('Functions: invocations', (fn) => fn.metricInvocations({ period })),
      perFn('Functions: errors', (fn) => fn.metricErrors({ period })),
      perFn('Functions: throttles', (fn) => fn.metricThrottles({ period })),
    );
    d.addWidgets(
      perFn('Functions: concurrent executions (max)', (fn) => fn.metric('ConcurrentExecutions', { period, statistic: cloudwatch.Stats.MAXIMUM })),
      perFn('Functions: duration p99 (ms)', (fn) => fn.metricDuration({ period, statistic: 'p99' })),
      new cloudwatch.GraphWidget({
        title: 'Stream: iterator age (ms, max) · Jobs: queued / dead',
        width: 8,
        left: [p.stream.metric('IteratorAge', { period, statistic: cloudwatch.Stats.MAXIMUM })],
        right: [
          p.jobsQueue.metricApproximateNumberOfMessagesVisible({ period, statistic: cloudwatch.Stats.MAXIMUM }),
          p.jobsDeadLetters.metricApproximateNumberOfMessagesVisible({ period, statistic: cloudwatch.Stats.MAXIMUM }),
        ],
      }),
    );
    d.addWidgets(
      new cloudwatch.GraphWidget({
        title: 'DynamoDB: throttled requests, system errors',
        width: 12,
        left: [
          p.table.metric('ReadThrottleEvents', { period, statistic: cloudwatch.Stats.SUM }),
          p.table.metric('WriteThrottleEvents', { period, statistic: cloudwatch.Stats.SUM }),
        ],
      }),
      new cloudwatch.AlarmStatusWidget({ title: 'Alarms', width: 12, alarms: this.alarms }),
    );
    return d;
  }
}

/** What the dashboard shows. */
export interface DashboardParts {
  readonly api: lambda.IFunction;
  readonly stream: lambda.IFunction;
  readonly dispatcher: lambda.IFunction;
  readonly worker: lambda.IFunction;
  readonly webdav: lambda.IFunction;
  readonly live: lambda.IFunction;
  readonly httpApi: apigwv2.HttpApi;
  readonly table: dynamodb.ITable;
  readonly jobsQueue: sqs.IQueue;
  readonly jobsDeadLetters: sqs.IQueue;
}
