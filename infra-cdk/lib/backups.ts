import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/**
 * Days a plan's backups are locked and kept (shared/backup RetentionDays:
 * the plan's number of backups at its cadence, and a day; a Go test pins
 * the same figures). Each backup is written locked in governance mode
 * until then and tagged retention=<days>; the rule of its class expires
 * it after that.
 */
export const BACKUP_RETENTION_DAYS = { free: 91, pro: 57, corp: 15 } as const;
/**
 * Days a plan's file contents were locked and kept by earlier builds
 * (three retentions, written again every two). Their rules stay
 * until those blobs are gone; a backup writes such a blob again, in the
 * classes below, once it would outlive it.
 */
export const BACKUP_CONTENT_DAYS = { free: 273, pro: 171, corp: 45 } as const;
/**
 * Classes of shared file contents (shared/backup ContentsClass,
 * DroppedClass): backups share each file version's contents, stored once
 * under backups/<db>/contents/<sha256>, locked for a retention and 90 days
 * and tagged "contents", which only the backstop expires; a backup extends
 * a lock in place (PutObjectRetention) rather than write the bytes again.
 * Once no listed backup names a blob it is tagged "dropped": expired after
 * a day, its version removed once the lock has passed.
 */
export const BACKUP_CONTENTS_CLASS = 'contents';
export const BACKUP_DROPPED_CLASS = 'dropped';
export const BACKUP_DROPPED_DAYS = 1;
/** The object tag the classes go by (shared/blob RetentionTag). */
export const BACKUP_RETENTION_TAG = 'retention';
/** The bucket's default lock, for an object written without one. */
export const BACKUP_DEFAULT_LOCK_DAYS = 15;
/** Days a version lives once noncurrent (its lock has passed by then). */
export const BACKUP_NONCURRENT_DAYS = 1;
/** Backstop for everything, and the only rule of the contents class (shared/backup BackstopDays). */
export const BACKUP_MAX_DAYS = 400;

/** What the roles that make backups may do there: write locked and tagged, and read. */
export const BACKUP_WRITER_ACTIONS = [
  's3:PutObject',
  's3:PutObjectRetention',
  's3:PutObjectTagging',
  's3:PutObjectVersionTagging',
  's3:GetObject',
  's3:GetObjectVersion',
  's3:AbortMultipartUpload',
  's3:ListMultipartUploadParts',
] as const;
/** What no principal may do there, whatever its policies say. */
export const BACKUP_DENIED_ACTIONS = [
  's3:DeleteObject',
  's3:DeleteObjectVersion',
  's3:BypassGovernanceRetention',
  's3:PutObjectLegalHold',
] as const;

/**
 * The Groups' backups (shared/backup), apart from the drive: a versioned
 * bucket with S3 Object Lock. Only the roles that make backups may write
 * (grantWriter); nobody may delete, shorten a lock or list, by the
 * bucket's own policy; the lifecycle removes what retention let go.
 * Retained even with a dev stack: locked objects cannot go with it.
 */
export class Backups extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      versioned: true,
      objectLockEnabled: true,
      objectLockDefaultRetention: s3.ObjectLockRetention.governance(Duration.days(BACKUP_DEFAULT_LOCK_DAYS)),
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        ...[
          ...Object.entries(BACKUP_RETENTION_DAYS).map(([plan, days]) => [`retention-${plan}`, days] as const),
          ...Object.entries(BACKUP_CONTENT_DAYS).map(([plan, days]) => [`contents-${plan}`, days] as const),
          [`contents-${BACKUP_DROPPED_CLASS}`, BACKUP_DROPPED_DAYS, BACKUP_DROPPED_CLASS] as const,
        ].map(([id, days, tag]) => ({
          id,
          tagFilters: { [BACKUP_RETENTION_TAG]: tag ?? String(days) },
          expiration: Duration.days(days),
          noncurrentVersionExpiration: Duration.days(BACKUP_NONCURRENT_DAYS),
        })),
        {
          id: 'backstop',
          expiration: Duration.days(BACKUP_MAX_DAYS),
          noncurrentVersionExpiration: Duration.days(BACKUP_NONCURRENT_DAYS),
        },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
    this.bucket.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'NobodyDeletesBackups',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: [...BACKUP_DENIED_ACTIONS],
        resources: [this.bucket.arnForObjects('*')],
      }),
    );
  }

  /** Lets a role that makes backups write them (locked, tagged) and read them. */
  grantWriter(grantee: iam.IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: [...BACKUP_WRITER_ACTIONS], resources: [this.bucket.arnForObjects('*')] }),
    );
  }
}
