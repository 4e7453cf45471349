import { Duration, Fn, RemovalPolicy } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import type { Stage } from './config';
import { ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_CODE } from './edge-headers';
import { SecurityHeaders } from './security-headers';
import { SPA_REWRITE_CODE } from './spa-rewrite';

export interface SiteProps {
  readonly stage: Stage;
  /** The built SPA (web/dist): index.html at its root, hashed files under assets/. */
  readonly webDir: string;
  /** https://<id>.execute-api.<region>.amazonaws.com of the HTTP API. */
  readonly apiEndpoint: string;
  readonly domainName?: string;
  readonly certificateArn?: string;
  readonly avatarOrigins: readonly string[];
  /**
   * The value CloudFront sends in ORIGIN_SECRET_HEADER to the API (a
   * dynamic reference to the generated secret, resolved at deploy time).
   */
  readonly originSecret: string;
  /** Behaviors placed before /api/* (CloudFront takes the first that matches): live updates' WebSocket. */
  readonly beforeApi?: Record<string, cloudfront.BehaviorOptions>;
}

/** The path the API is served under, on the site's own origin. */
export const API_PATH_PATTERN = '/api/*';

/** Cache-Control for Vite's content-hashed files under assets/. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Cache-Control for everything else (index.html, public/ files): always revalidate. */
export const REVALIDATE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/**
 * The build's precompressed copies (web/vite.config.ts writes x.br and x.gz
 * beside each text file for the Go server). They stay out of the bucket:
 * CloudFront compresses instead (`compress: true` on the SPA behaviour, with
 * the CachingOptimized policy keying its cache on gzip and brotli), so S3
 * holds each file once and never answers with bytes in an encoding the
 * viewer did not ask for.
 */
export const PRECOMPRESSED_COPIES = ['*.br', '*.gz'];

/**
 * The web front: a private bucket with the SPA, CloudFront in front of it
 * (origin access control, so only this distribution can read the bucket),
 * and the API on the same origin under /api/* so the session cookie is
 * first-party and no CORS is needed.
 */
export class Site extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  /** https://<domainName or the distribution's domain> */
  readonly url: string;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);
    const prod = props.stage === 'prod';

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // The contents are a build output; in dev they go with the stack.
      removalPolicy: prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: !prod,
    });

    const spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      comment: 'SPA routes: extension-less paths are served /index.html',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(SPA_REWRITE_CODE),
    });

    const viewerAddress = new cloudfront.Function(this, 'ViewerAddress', {
      comment: 'API requests: the viewer IP in X-Oficina-Viewer-Address (edge-headers.ts)',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(VIEWER_ADDRESS_CODE),
    });

    const headers = new SecurityHeaders(this, 'Headers', { imageOrigins: props.avatarOrigins });

    // The HTTP API's host name: https://<host> → <host>.
    const apiHost = Fn.select(2, Fn.split('/', props.apiEndpoint));

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Oficina ${props.stage}`,
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // PriceClass_100/200 leave out South American edges, and pt-BR users are the core audience.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_ALL,
      enableIpv6: true,
      ...(props.domainName && props.certificateArn
        ? {
            domainNames: [props.domainName],
            certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn),
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers.policy,
        compress: true,
        functionAssociations: [{ function: spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        ...Object.fromEntries(Object.entries(props.beforeApi ?? {}).map(([path, b]) => [path, { responseHeadersPolicy: headers.policy, ...b }])),
        [API_PATH_PATTERN]: {
          origin: new origins.HttpOrigin(apiHost, {
            protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
            readTimeout: Duration.seconds(30),
            customHeaders: { [ORIGIN_SECRET_HEADER]: props.originSecret },
          }),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          // Cookies (AuthSession, XSRF), query strings and every header but Host:
          // API Gateway routes on its own Host name.
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: headers.policy,
          compress: true,
          functionAssociations: [{ function: viewerAddress, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        },
      },
      // No errorResponses on purpose: they would rewrite the API's 403/404 JSON too (see spa-rewrite.ts).
    });

    this.url = `https://${props.domainName ?? this.distribution.distributionDomainName}`;

    // The SPA goes up in two steps so a browser never gets an index.html whose
    // assets are not there yet: first the content-hashed files (cached for a
    // year), then everything else (revalidated on every load) with an
    // invalidation. Neither prunes: a tab still running the previous build can
    // lazy-load its old chunks. A CloudFormation rollback re-runs the previous
    // deployment, so the previous SPA comes back with the previous functions.
    const source = s3deploy.Source.asset(props.webDir, { exclude: PRECOMPRESSED_COPIES });
    const deployLogs = new logs.LogGroup(this, 'DeployLogs', {
      retention: logs.RetentionDays.ONE_WEEK,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const hashed = new s3deploy.BucketDeployment(this, 'DeployHashedAssets', {
      sources: [source],
      destinationBucket: this.bucket,
      include: ['assets/*'],
      exclude: ['*'],
      prune: false,
      cacheControl: [s3deploy.CacheControl.fromString(IMMUTABLE_CACHE_CONTROL)],
      memoryLimit: 512,
      logGroup: deployLogs,
      outputObjectKeys: false,
    });
    const rest = new s3deploy.BucketDeployment(this, 'DeploySite', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ['assets/*'],
      prune: false,
      cacheControl: [s3deploy.CacheControl.fromString(REVALIDATE_CACHE_CONTROL)],
      memoryLimit: 512,
      logGroup: deployLogs,
      outputObjectKeys: false,
      distribution: this.distribution,
      distributionPaths: ['/*'],
    });
    rest.node.addDependency(hashed);
  }
}
