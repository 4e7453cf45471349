/**
 * The SPA's compression in the cloud (issue 23): CloudFront compresses the
 * files it reads from S3, and the build's precompressed copies (x.br, x.gz,
 * which the local Go server sends) are not uploaded.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { App, Stack } from 'aws-cdk-lib';
import { PRECOMPRESSED_COPIES, Site } from '../lib/site';
import { only, synth } from './support';

// CloudFront's managed CachingOptimized policy: gzip and brotli in the cache key (fixed by AWS).
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p).map((f) => `${e.name}/${f}`) : [e.name];
  });
}

describe('the SPA compression', () => {
  it('is CloudFront\'s: the SPA behaviour compresses, with gzip and brotli in the cache key', () => {
    const [, dist] = only(synth().json, 'AWS::CloudFront::Distribution');
    const spa = dist.Properties!.DistributionConfig.DefaultCacheBehavior;
    assert.equal(spa.Compress, true);
    assert.equal(spa.CachePolicyId, CACHING_OPTIMIZED);
  });

  it('uploads each file once: the precompressed copies stay out of the deployment', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'oficina-site-'));
    try {
      const web = path.join(root, 'web');
      fs.mkdirSync(path.join(web, 'assets'), { recursive: true });
      for (const f of ['index.html', 'index.html.br', 'index.html.gz', 'favicon.svg.gz', 'assets/app-1.js', 'assets/app-1.js.br', 'assets/app-1.js.gz', 'assets/app-1.css', 'assets/app-1.css.br']) {
        fs.writeFileSync(path.join(web, f), f);
      }
      const outdir = path.join(root, 'cdk.out');
      const app = new App({ outdir });
      const stack = new Stack(app, 'SiteOnly');
      new Site(stack, 'Site', {
        stage: 'dev',
        webDir: web,
        apiEndpoint: 'https://abc.execute-api.eu-west-1.amazonaws.com',
        avatarOrigins: [],
        originSecret: 'a-test-origin-secret-value',
      });
      app.synth();
      const staged = fs
        .readdirSync(outdir)
        .map((d) => path.join(outdir, d))
        .filter((d) => fs.statSync(d).isDirectory() && fs.existsSync(path.join(d, 'index.html')));
      assert.equal(staged.length, 1, 'one staged copy of the SPA');
      assert.deepEqual(filesUnder(staged[0]!).sort(), ['assets/app-1.css', 'assets/app-1.js', 'index.html']);
      assert.deepEqual(PRECOMPRESSED_COPIES, ['*.br', '*.gz']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
