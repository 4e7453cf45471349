import { Duration, Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { Stage } from './config';
import { ORIGIN_SECRET_HEADER } from './edge-headers';
import { GoFunction } from './go-function';
import { API_TABLE_ACTIONS } from './table-access';

/** The browser's address of the live-updates WebSocket, on the site's origin (shared/httpapi.LivePath). */
export const LIVE_PATH = '/api/_live';
/** The WebSocket API's stage: its URL path, and the management endpoint's. */
export const LIVE_STAGE = 'live';
/** The routes API Gateway sends to functions/live. */
export const LIVE_ROUTES = ['$connect', '$disconnect', '$default'] as const;
/** A ceiling against runaway clients (messages a second for the stage); the SPA sends one keep-alive per 8 minutes. */
export const LIVE_THROTTLE = { rateLimit: 100, burstLimit: 200 } as const;
/**
 * What the stream function may do besides its own table actions: forget the
 * items of connections that are gone or refused (shared/live.Cloud).
 */
export const LIVE_STREAM_TABLE_ACTIONS = ['dynamodb:DeleteItem'] as const;

/**
 * The viewer-request function of the /api/_live behavior: the viewer's
 * address, as on /api/* (edge-headers.ts), and the path API Gateway
 * accepts a WebSocket on (its stage), since it has no other routes.
 */
export const LIVE_VIEWER_CODE = `function handler(event) {
  var request = event.request;
  request.headers['x-oficina-viewer-address'] = { value: event.viewer.ip };
  request.uri = '/${LIVE_STAGE}';
  return request;
}
`;

export interface LiveUpdatesProps {
  readonly stage: Stage;
}

export interface LiveUpdatesAttachProps {
  readonly lambdaDir: string;
  /** The product's settings, as the api function has them (its origin secret, base URL, cookies). */
  readonly environment: Record<string, string>;
  readonly table: dynamodb.ITable;
  /** functions/stream, which posts the notices. */
  readonly stream: lambda.Function;
  /** Reserved concurrency of functions/live (config liveConcurrency). */
  readonly reservedConcurrentExecutions?: number;
}

/**
 * Live updates in the cloud (issue 25): API Gateway's WebSocket API with
 * $connect, $disconnect and $default on functions/live, reached through
 * CloudFront at /api/_live on the site's origin (so the session cookie is
 * sent and the origin secret added). The connections and subscriptions are
 * items of the table (shared/live/cloud.go); the stream function posts the
 * notices through the management API. Both functions may manage this API's
 * connections and no other's.
 *
 * Two steps, because CloudFront needs the API before the distribution
 * exists and the function needs the site's URL after: the constructor
 * makes the API and its stage, `behavior` the distribution's behavior,
 * `attach` the function, the routes and the grants.
 */
export class LiveUpdates extends Construct {
  readonly api: apigwv2.WebSocketApi;
  readonly apiStage: apigwv2.WebSocketStage;
  /** https://<api>.execute-api.<region>.amazonaws.com/live: OFICINA_LIVE_ENDPOINT. */
  readonly managementEndpoint: string;
  private readonly stage: Stage;
  private fnValue?: lambda.Function;

  constructor(scope: Construct, id: string, props: LiveUpdatesProps) {
    super(scope, id);
    this.stage = props.stage;
    this.api = new apigwv2.WebSocketApi(this, 'Api', {
      apiName: `oficina-${props.stage}-live`,
      description: `Oficina ${props.stage} live updates (browsers reach it through CloudFront at ${LIVE_PATH})`,
    });
    this.apiStage = new apigwv2.WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: LIVE_STAGE,
      autoDeploy: true,
      throttle: LIVE_THROTTLE,
    });
    this.managementEndpoint = this.apiStage.callbackUrl;
  }

  /** functions/live, once attached. */
  get fn(): lambda.Function {
    if (!this.fnValue) throw new Error('LiveUpdates: attach() has not run');
    return this.fnValue;
  }

  /** The CloudFront behavior for LIVE_PATH, which must come before /api/*. */
  behavior(originSecret: string): cloudfront.BehaviorOptions {
    const stack = Stack.of(this);
    const host = `${this.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
    const viewer = new cloudfront.Function(this, 'ViewerRequest', {
      comment: 'Live updates: the viewer IP, and the WebSocket API stage as the path',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(LIVE_VIEWER_CODE),
    });
    return {
      origin: new origins.HttpOrigin(host, {
        protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
        customHeaders: { [ORIGIN_SECRET_HEADER]: originSecret },
      }),
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      // The cookies, the XSRF query parameter and the WebSocket headers; Host is API Gateway's.
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      functionAssociations: [{ function: viewer, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
    };
  }

  /** Adds functions/live, its routes, and the grants of both functions. */
  attach(props: LiveUpdatesAttachProps): lambda.Function {
    const live = new GoFunction(this, 'Function', {
      name: 'live',
      lambdaDir: props.lambdaDir,
      stage: this.stage,
      description: 'Oficina live updates: WebSocket $connect, $disconnect, $default (functions/live)',
      memorySize: 256,
      timeout: Duration.seconds(10),
      environment: { ...props.environment, OFICINA_LIVE_ENDPOINT: this.managementEndpoint },
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
    });
    this.fnValue = live.fn;
    const integration = new WebSocketLambdaIntegration('Integration', live.fn);
    for (const route of LIVE_ROUTES) this.api.addRoute(route, { integration });
    // It authenticates like the API (sessions, users, tokens, _security) and keeps the connections.
    props.table.grant(live.fn, ...API_TABLE_ACTIONS);
    props.table.grant(props.stream, ...LIVE_STREAM_TABLE_ACTIONS);
    this.apiStage.grantManagementApiAccess(live.fn);
    this.apiStage.grantManagementApiAccess(props.stream);
    props.stream.addEnvironment('OFICINA_LIVE_ENDPOINT', this.managementEndpoint);
    return live.fn;
  }
}
