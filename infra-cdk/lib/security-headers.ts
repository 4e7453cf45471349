import { Duration } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { Construct } from 'constructs';

export interface SecurityHeadersProps {
  /** Extra origins for img-src (avatars). */
  readonly imageOrigins: readonly string[];
  /** Extra origins for connect-src (none today; the SPA only calls /api on its own origin). */
  readonly connectOrigins?: readonly string[];
}

/**
 * The Content-Security-Policy for the Vite-built SPA:
 * - scripts only from our origin: Vite emits module scripts as files, no
 *   inline script, no eval;
 * - style-src allows 'unsafe-inline' because Amplify UI (and React's style
 *   props under a strict CSP) set inline style attributes;
 * - images from us, data: URIs (icons inlined by Vite/Amplify UI), blob:
 *   (previews of files being uploaded) and the avatar service;
 * - fetch/XHR only to our origin (/api/* is on the same host via CloudFront);
 * - audio and video from any https origin: the reader plays podcast
 *   episodes from their publishers (the element's src, never script);
 * - no plugins, no <base> hijack, forms post only to us, and no framing.
 */
export function contentSecurityPolicy(props: SecurityHeadersProps): string {
  const img = ["'self'", 'data:', 'blob:', ...props.imageOrigins];
  const connect = ["'self'", ...(props.connectOrigins ?? [])];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${img.join(' ')}`,
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "media-src 'self' https:",
    "manifest-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    'upgrade-insecure-requests',
  ].join('; ');
}

/** The response headers policy both behaviors (site and /api/*) use. */
export class SecurityHeaders extends Construct {
  readonly policy: cloudfront.ResponseHeadersPolicy;

  constructor(scope: Construct, id: string, props: SecurityHeadersProps) {
    super(scope, id);
    this.policy = new cloudfront.ResponseHeadersPolicy(this, 'Policy', {
      comment: 'Oficina: HSTS, CSP for the SPA, no framing, no sniffing',
      securityHeadersBehavior: {
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          preload: false,
          override: true,
        },
        contentSecurityPolicy: { contentSecurityPolicy: contentSecurityPolicy(props), override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
      },
      customHeadersBehavior: {
        customHeaders: [
          { header: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()', override: true },
          { header: 'Cross-Origin-Opener-Policy', value: 'same-origin', override: true },
        ],
      },
    });
  }
}
