/**
 * Assertion tests for the drive's bucket (lib/files.ts): versioned and
 * private, the last-versions rule's backstop and aborted uploads in its
 * lifecycle, CORS for the SPA's presigned transfers, and the functions'
 * access and settings.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Match } from 'aws-cdk-lib/assertions';
import {
  ABORT_UPLOAD_DAYS,
  BACKUP_MAX_DAYS,
  BACKUP_NONCURRENT_DAYS,
  BACKUPS_PREFIX,
  BLOB_BUCKET_ACTIONS,
  BLOB_OBJECT_ACTIONS,
  NONCURRENT_DAYS,
  NONCURRENT_VERSIONS_KEPT,
  TIERING_MIN_BYTES,
} from '../lib/files';
import { OUTPUTS } from '../lib/oficina-stack';
import { actions, functionRole, logicalIdOf, PROD_CONTEXT, roleStatements, synth } from './support';

const dev = () => synth();
const prod = () => synth({ ...PROD_CONTEXT });

describe("the drive's bucket", () => {
  it('is versioned, private, encrypted and TLS-only', () => {
    const s = dev();
    const id = logicalIdOf(s, s.stack.files.bucket);
    const b = s.json.Resources[id]!;
    assert.deepEqual(b.Properties!.VersioningConfiguration, { Status: 'Enabled' });
    assert.deepEqual(b.Properties!.PublicAccessBlockConfiguration, {
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    s.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id },
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });

  it('keeps at most the versions a file may ask for, as a backstop, and aborts abandoned uploads', () => {
    const s = dev();
    const rules = s.json.Resources[logicalIdOf(s, s.stack.files.bucket)]!.Properties!.LifecycleConfiguration.Rules as Array<Record<string, any>>;
    const versions = rules.find((r) => r.Id === 'versions-backstop');
    assert.ok(versions, 'no noncurrent-versions rule');
    assert.equal(versions.Status, 'Enabled');
    assert.deepEqual(versions.NoncurrentVersionExpiration, { NoncurrentDays: NONCURRENT_DAYS, NewerNoncurrentVersions: NONCURRENT_VERSIONS_KEPT });
    assert.ok(NONCURRENT_VERSIONS_KEPT >= 99, 'a file may keep 100 versions: the backstop must not cut below that');
    assert.equal(versions.ExpiredObjectDeleteMarker, true);
    // Files of 128 KiB and more, and their old versions, go to Intelligent-Tiering when written
    // (shared/capacity prices the drive so); no opt-in archive tier, whose reads take hours.
    const tiering = rules.find((r) => r.Id === 'intelligent-tiering');
    assert.ok(tiering, 'no intelligent-tiering rule');
    assert.equal(tiering.Status, 'Enabled');
    assert.equal(tiering.ObjectSizeGreaterThan, String(TIERING_MIN_BYTES - 1)); // CloudFormation's type: a string
    assert.equal(TIERING_MIN_BYTES, 128 * 1024);
    assert.deepEqual(tiering.Transitions, [{ StorageClass: 'INTELLIGENT_TIERING', TransitionInDays: 0 }]);
    assert.deepEqual(tiering.NoncurrentVersionTransitions, [{ StorageClass: 'INTELLIGENT_TIERING', TransitionInDays: 0 }]);
    assert.equal(s.json.Resources[logicalIdOf(s, s.stack.files.bucket)]!.Properties!.IntelligentTieringConfigurations, undefined);
    const aborts = rules.find((r) => r.Id === 'abort-incomplete-uploads');
    assert.deepEqual(aborts?.AbortIncompleteMultipartUpload, { DaysAfterInitiation: ABORT_UPLOAD_DAYS });
    // Backups: under their own prefix (never a drive key: those start with the Group's db),
    // deleted versions gone after a day, a backstop for the oldest.
    const backups = rules.find((r) => r.Id === 'backups');
    assert.ok(backups, 'no backups rule');
    assert.equal(backups.Status, 'Enabled');
    assert.equal(backups.Prefix, BACKUPS_PREFIX);
    assert.equal(backups.ExpirationInDays, BACKUP_MAX_DAYS);
    assert.deepEqual(backups.NoncurrentVersionExpiration, { NoncurrentDays: BACKUP_NONCURRENT_DAYS });
  });

  it("lets the site's origin upload and download with presigned URLs, the ETag exposed", () => {
    const s = dev();
    const cors = s.json.Resources[logicalIdOf(s, s.stack.files.bucket)]!.Properties!.CorsConfiguration.CorsRules as Array<Record<string, any>>;
    assert.equal(cors.length, 1);
    assert.deepEqual([...cors[0]!.AllowedMethods].sort(), ['GET', 'HEAD', 'PUT']);
    assert.deepEqual(cors[0]!.ExposedHeaders, ['ETag']);
    assert.equal(cors[0]!.AllowedOrigins.length, 1);
    assert.ok(!JSON.stringify(cors[0]!.AllowedOrigins).includes('*'), 'never any origin');
  });

  it('gives the api and schedule functions the blob actions on this bucket only, and tells them where it is', () => {
    const s = dev();
    const bucket = logicalIdOf(s, s.stack.files.bucket);
    for (const fn of [s.stack.apiFunction, s.stack.schedules.worker]) {
      const fnId = logicalIdOf(s, fn);
      const st = roleStatements(s.json, functionRole(s.json, fnId)).filter((x) => JSON.stringify(x.Resource).includes(bucket));
      const granted = st.flatMap(actions).sort();
      assert.deepEqual(granted, [...BLOB_OBJECT_ACTIONS, ...BLOB_BUCKET_ACTIONS].sort(), fnId);
      const env = s.json.Resources[fnId]!.Properties!.Environment.Variables;
      assert.equal(env.OFICINA_BLOBS, 's3');
      assert.deepEqual(env.OFICINA_BUCKET, { Ref: bucket });
    }
    const stream = roleStatements(s.json, functionRole(s.json, logicalIdOf(s, s.stack.streamFunction)));
    assert.ok(!JSON.stringify(stream).includes(bucket), 'the stream consumer never touches files');
    assert.ok(s.json.Outputs?.[OUTPUTS.filesBucketName], 'the bucket name is an output');
  });

  it('keeps the files when a prod stack goes, and lets a dev stack take them along', () => {
    const d = dev();
    assert.equal(d.json.Resources[logicalIdOf(d, d.stack.files.bucket)]!.DeletionPolicy, 'Delete');
    const p = prod();
    assert.equal(p.json.Resources[logicalIdOf(p, p.stack.files.bucket)]!.DeletionPolicy, 'Retain');
  });
});
