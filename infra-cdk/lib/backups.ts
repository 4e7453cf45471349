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
 * Days a plan's file contents are locked and kept (shared/backup
 * ContentDays: three retentions). Backups share each file version's
 * contents, stored once under backups/<db>/contents/<sha256>; a backup
 * that would outlive a stored blob writes it again, so a blob in use is
 * rewritten every two retentions and one no backup names is gone after
 * three.
 */
export const BACKUP_CONTENT_DAYS = { free: 273, pro: 171, corp: 45 } as const;
/** The object tag the classes go by (shared/blob RetentionTag). */
export const BACKUP_RETENTION_TAG = 'retention';
/** The bucket's default lock, for an object written without one. */
export const BACKUP_DEFAULT_LOCK_DAYS = 15;
/** Days a version lives once noncurrent (its lock has passed by then). */
export const BACKUP_NONCURRENT_DAYS = 1;
/** Backstop for anything without a class. */
export const BACKUP_MAX_DAYS = 400;

/** What the roles that make backups may do there: write locked and tagged, and read. */
export const BACKUP_WRITER_ACTIONS = [
  's3:PutObject',
  's3:PutObjectRetention',
  's3:PutObjectTagging',
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
        ].map(([id, days]) => ({
          id,
          tagFilters: { [BACKUP_RETENTION_TAG]: String(days) },
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
