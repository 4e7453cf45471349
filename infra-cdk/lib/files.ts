import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { Stage } from './config';

export interface FilesProps {
  readonly stage: Stage;
  /** The site's origin (https://…): browsers upload and download there straight to S3. */
  readonly siteUrl: string;
}

/**
 * How many noncurrent versions of an object the lifecycle rule keeps: the
 * drive trims each file to its own max_versions (1..100, default 3) as it
 * writes, so this is only the backstop for a trim that failed — never
 * below what a file may ask for (S3's ceiling for the setting is 100).
 */
export const NONCURRENT_VERSIONS_KEPT = 99;
/** Days a version beyond NONCURRENT_VERSIONS_KEPT lives once noncurrent. */
export const NONCURRENT_DAYS = 1;
/**
 * Days a version the drive retired (trimmed beyond a file's max_versions,
 * or of a deleted file: tagged retired=drive by shared/blob) lives once
 * noncurrent: a table restored to any point of the last week still finds
 * every version it lists (docs/operating.md, disaster recovery).
 */
export const RETIRED_VERSION_GRACE_DAYS = 7;
export const RETIRED_TAG = { retired: 'drive' } as const;
/** Days before an upload a browser started and never completed is aborted. */
export const ABORT_UPLOAD_DAYS = 1;

/**
 * Backups made before the backups bucket (lib/backups.ts) live in this bucket under BACKUPS_PREFIX:
 * the module deletes what its retention drops (3 / 8 / 14 newest per plan);
 * the rule expires those deleted versions after a day, and is the backstop
 * for anything older than BACKUP_MAX_DAYS.
 */
export const BACKUPS_PREFIX = 'backups/';
export const BACKUP_NONCURRENT_DAYS = 1;
export const BACKUP_MAX_DAYS = 400;

/**
 * Files of 128 KiB and more (and their old versions) go to S3
 * Intelligent-Tiering the day they are written: untouched for 30 days they
 * are billed $0.0125/GB, for 90 days $0.004/GB (Archive Instant Access),
 * read in milliseconds with no retrieval fee, and back to $0.023/GB once
 * read. Its monitoring costs $0.0025 per 1,000 objects a month, which is
 * why smaller files (and what S3 would not move anyway) stay in Standard.
 * The opt-in archive tiers (hours to read) are not enabled.
 */
export const TIERING_MIN_BYTES = 128 * 1024;

/** The actions the drive's blob store (shared/blob S3) needs on its bucket. */
export const BLOB_OBJECT_ACTIONS = [
  's3:GetObject',
  's3:GetObjectVersion',
  's3:PutObject',
  's3:DeleteObject',
  's3:DeleteObjectVersion',
  's3:AbortMultipartUpload',
  's3:ListMultipartUploadParts',
  // Retiring versions (shared/blob Retirer) and telling retired ones apart.
  's3:PutObjectVersionTagging',
  's3:GetObjectVersionTagging',
] as const;
export const BLOB_BUCKET_ACTIONS = ['s3:ListBucket', 's3:ListBucketVersions', 's3:GetBucketVersioning'] as const;

/**
 * The drive's files (DESIGN §5): a private, versioned bucket — a file's
 * versions are the object's versions — with the last-versions rule's
 * backstop, incomplete browser uploads aborted, and CORS for the presigned
 * uploads and downloads the SPA makes from the site's origin (ETag exposed:
 * multipart completion needs each part's).
 */
export class Files extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: FilesProps) {
    super(scope, id);
    const prod = props.stage === 'prod';
    const lifecycleRules: s3.LifecycleRule[] = [
      {
        id: 'versions-backstop',
        noncurrentVersionsToRetain: NONCURRENT_VERSIONS_KEPT,
        noncurrentVersionExpiration: Duration.days(NONCURRENT_DAYS),
        expiredObjectDeleteMarker: true,
      },
      {
        id: 'retired-versions',
        tagFilters: { ...RETIRED_TAG },
        noncurrentVersionExpiration: Duration.days(RETIRED_VERSION_GRACE_DAYS),
      },
      { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(ABORT_UPLOAD_DAYS) },
      {
        id: 'intelligent-tiering',
        objectSizeGreaterThan: TIERING_MIN_BYTES - 1,
        transitions: [{ storageClass: s3.StorageClass.INTELLIGENT_TIERING, transitionAfter: Duration.days(0) }],
        noncurrentVersionTransitions: [{ storageClass: s3.StorageClass.INTELLIGENT_TIERING, transitionAfter: Duration.days(0) }],
      },
      {
        id: 'backups',
        prefix: BACKUPS_PREFIX,
        expiration: Duration.days(BACKUP_MAX_DAYS),
        noncurrentVersionExpiration: Duration.days(BACKUP_NONCURRENT_DAYS),
      },
    ];
    this.bucket = new s3.Bucket(this, 'Bucket', {
      versioned: true,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Users' files: kept when the stack goes in prod; dev goes with it.
      removalPolicy: prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: !prod,
      lifecycleRules,
      cors: [
        {
          allowedOrigins: [props.siteUrl],
          allowedMethods: [s3.HttpMethods.GET, s3.HttpMethods.PUT, s3.HttpMethods.HEAD],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: 3600,
        },
      ],
    });
    // CloudFormation types ObjectSizeGreaterThan as a string (a Long); the
    // L2 prop is a number, which synth coerces with a warning.
    const cfn = this.bucket.node.defaultChild as s3.CfnBucket;
    const tiering = lifecycleRules.findIndex((r) => r.id === 'intelligent-tiering');
    cfn.addPropertyOverride(`LifecycleConfiguration.Rules.${tiering}.ObjectSizeGreaterThan`, String(TIERING_MIN_BYTES - 1));
  }

  /** grantBlobs lets a function use the bucket as the drive's blob store. */
  grantBlobs(grantee: iam.IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [...BLOB_OBJECT_ACTIONS],
        resources: [this.bucket.arnForObjects('*')],
      }),
    );
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [...BLOB_BUCKET_ACTIONS],
        resources: [this.bucket.bucketArn],
      }),
    );
  }
}
