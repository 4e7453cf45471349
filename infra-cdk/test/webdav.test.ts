/**
 * Assertion tests for the WebDAV function (lib/webdav.ts): a container
 * image (functions/webdav/Dockerfile, linux/arm64) with the Lambda Web
 * Adapter, behind its own Function URL that streams answers, with the
 * product's settings and access to the table and the drive's bucket only.
 * No image is built: the template and the asset's manifest are read.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { BLOB_OBJECT_ACTIONS } from '../lib/files';
import { OUTPUTS } from '../lib/oficina-stack';
import { LAMBDA_FUNCTIONS } from '../lib/paths';
import { API_TABLE_ACTIONS } from '../lib/table-access';
import {
  LAMBDA_REQUEST_LIMIT_BYTES,
  LAMBDA_STREAMED_RESPONSE_LIMIT_BYTES,
  WEBDAV_DOCKERFILE,
  WEBDAV_MAX_PUT_BYTES,
  WEBDAV_PORT,
  WEBDAV_REDIRECT_ABOVE_BYTES,
} from '../lib/webdav';
import { actions, functionRole, logicalIdOf, PROD_CONTEXT, REPO_DIR, roleStatements, synth } from './support';

const dev = () => synth();

describe('the WebDAV function', () => {
  it('is a linux/arm64 container image built from functions/webdav/Dockerfile', () => {
    const s = dev();
    const fn = s.json.Resources[logicalIdOf(s, s.stack.webdav.fn)]!;
    assert.equal(fn.Properties!.PackageType, 'Image');
    assert.deepEqual(fn.Properties!.Architectures, ['arm64']);
    assert.ok(fn.Properties!.Code.ImageUri, 'an image URI');
    const asm = s.app.synth();
    const manifest = JSON.parse(fs.readFileSync(path.join(asm.directory, `${s.stack.artifactId}.assets.json`), 'utf8'));
    const assets = Object.values(manifest.dockerImages ?? {}).map((a: any) => a.source as Record<string, unknown>);
    assert.equal(assets.length, 1, 'one image asset');
    assert.equal(assets[0]!.dockerFile, WEBDAV_DOCKERFILE);
    // The staged context holds the Go module only.
    const staged = path.join(asm.directory, String(assets[0]!.directory));
    assert.deepEqual(fs.readdirSync(staged).sort(), ['functions', 'go.mod', 'go.sum', 'shared']);
    assert.deepEqual(fs.readdirSync(path.join(staged, 'functions')), ['webdav']);
    assert.equal(assets[0]!.platform, 'linux/arm64');
  });

  it('runs the Go server behind the Lambda Web Adapter, which also runs it unchanged elsewhere', () => {
    const dockerfile = fs.readFileSync(path.join(REPO_DIR, WEBDAV_DOCKERFILE), 'utf8');
    assert.match(dockerfile, /aws-lambda-adapter:[0-9.]+/);
    assert.match(dockerfile, /COPY --from=adapter \/lambda-adapter \/opt\/extensions\/lambda-adapter/);
    assert.match(dockerfile, /go build .* \.\/functions\/webdav/);
    assert.match(dockerfile, new RegExp(`PORT=${WEBDAV_PORT}`));
    assert.match(dockerfile, /AWS_LWA_READINESS_CHECK_PATH=\/healthz/);
    assert.ok(fs.existsSync(path.join(REPO_DIR, 'functions', 'webdav', 'main.go')));
    // An image, not a zip: `make lambdas` does not build it.
    assert.ok(!(LAMBDA_FUNCTIONS as readonly string[]).includes('webdav'));
  });

  it("has the product's settings, streams answers and checks readiness", () => {
    const s = dev();
    const fn = s.json.Resources[logicalIdOf(s, s.stack.webdav.fn)]!;
    const env = fn.Properties!.Environment.Variables as Record<string, unknown>;
    assert.equal(env.OFICINA_STORE, 'dynamo');
    assert.equal(env.OFICINA_BLOBS, 's3');
    assert.deepEqual(env.OFICINA_BUCKET, { Ref: logicalIdOf(s, s.stack.files.bucket) });
    assert.ok(env.OFICINA_TABLE);
    assert.equal(env.AWS_LWA_INVOKE_MODE, 'response_stream');
    assert.equal(env.AWS_LWA_PORT, WEBDAV_PORT);
    assert.equal(env.PORT, WEBDAV_PORT);
    assert.equal(env.AWS_LWA_READINESS_CHECK_PATH, '/healthz');
    assert.equal(env.OFICINA_ORIGIN_SECRET, undefined, 'no CloudFront secret: the URL is reached directly');
  });

  it("refuses PUTs Lambda's request cannot carry and redirects GETs its streamed answer cannot", () => {
    const s = dev();
    const env = s.json.Resources[logicalIdOf(s, s.stack.webdav.fn)]!.Properties!.Environment.Variables as Record<string, unknown>;
    assert.equal(env.OFICINA_DAV_MAX_PUT, String(WEBDAV_MAX_PUT_BYTES));
    // A binary body travels base64-encoded: 4/3 of the file, with room for headers.
    assert.ok(Math.ceil(WEBDAV_MAX_PUT_BYTES / 3) * 4 + 256 * 1024 < LAMBDA_REQUEST_LIMIT_BYTES);
    assert.equal(env.OFICINA_DAV_REDIRECT_ABOVE, String(WEBDAV_REDIRECT_ABOVE_BYTES));
    assert.ok(WEBDAV_REDIRECT_ABOVE_BYTES < LAMBDA_STREAMED_RESPONSE_LIMIT_BYTES);
    // The presigned GET is signed with the function's role: it reads the drive's objects.
    const id = logicalIdOf(s, s.stack.webdav.fn);
    const readsObjects = roleStatements(s.json, functionRole(s.json, id)).some(
      (st: any) => st.Effect === 'Allow' && actions(st).includes('s3:GetObjectVersion'),
    );
    assert.ok(readsObjects, 'the webdav role reads object versions');
  });

  it("gives the api its address, which the drive's WebDAV help shows (CloudFront does not pass WebDAV's methods)", () => {
    const s = dev();
    const api = s.json.Resources[logicalIdOf(s, s.stack.apiFunction)]!;
    const env = api.Properties!.Environment.Variables as Record<string, unknown>;
    const dav = JSON.stringify(env.OFICINA_DAV_URL);
    assert.ok(dav.includes(logicalIdOf(s, s.stack.webdav.url)), `OFICINA_DAV_URL names the WebDAV Function URL: ${dav}`);
    assert.ok(dav.includes('dav/'), dav);
  });

  it('has its own HTTPS Function URL, authenticated by the server (Basic auth with API tokens)', () => {
    const s = dev();
    const id = logicalIdOf(s, s.stack.webdav.fn);
    s.template.hasResourceProperties('AWS::Lambda::Url', {
      AuthType: 'NONE',
      InvokeMode: 'RESPONSE_STREAM',
      TargetFunctionArn: { 'Fn::GetAtt': [id, 'Arn'] },
    });
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunctionUrl',
      FunctionName: { 'Fn::GetAtt': [id, 'Arn'] },
      FunctionUrlAuthType: 'NONE',
      Principal: '*',
    });
    const out = s.json.Outputs?.[OUTPUTS.webdavUrl];
    assert.ok(out, 'the WebDAV address is an output');
    assert.match(JSON.stringify(out.Value), /dav\//);
  });

  it('may use the table and the bucket, and nothing else', () => {
    for (const s of [dev(), synth({ ...PROD_CONTEXT })]) {
      const id = logicalIdOf(s, s.stack.webdav.fn);
      const st = roleStatements(s.json, functionRole(s.json, id));
      const all = st.flatMap(actions);
      for (const a of API_TABLE_ACTIONS) assert.ok(all.includes(a), a);
      for (const a of BLOB_OBJECT_ACTIONS) assert.ok(all.includes(a), a);
      const services = new Set(all.map((a) => a.split(':')[0]));
      assert.deepEqual([...services].sort(), ['dynamodb', 'logs', 's3'].filter((x) => services.has(x)).sort());
      assert.ok(!all.some((a) => a.startsWith('ses:')), 'no mail');
      assert.equal(
        s.json.Resources[id]!.Properties!.LoggingConfig.LogGroup.Ref,
        logicalIdOf(s, s.stack.webdav.logGroup),
      );
    }
  });
});
