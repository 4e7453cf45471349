/**
 * Unit tests of the pieces the stack is made of: config validation, the
 * table.json reader, the SPA rewrite function, the CSP and the zip writer.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import * as zlib from 'node:zlib';
import { describe, it } from 'node:test';
import { crc32, writeZip, zipEntries } from '../scripts/lambda-zip.cjs';
import { ConfigError, configFromContext, parseMailbox } from '../lib/config';
import { LAMBDA_FUNCTIONS } from '../lib/paths';
import { writePlaceholderAssets } from '../lib/placeholder-assets';
import { contentSecurityPolicy } from '../lib/security-headers';
import { SPA_REWRITE_CODE } from '../lib/spa-rewrite';
import { loadTableDefinition, parseTableDefinition } from '../lib/table-definition';

const ctx = (values: Record<string, string>) => (key: string) => values[key];

describe('config', () => {
  it('defaults to a dev stage that synthesises without any context', () => {
    const c = configFromContext(ctx({}));
    assert.equal(c.stage, 'dev');
    assert.equal(c.mailFrom, 'Oficina <no-reply@example.com>');
    assert.deepEqual(c.serverAdmins, []);
    assert.equal(c.domainName, undefined);
  });

  it('derives the sender from sesDomain and normalises admins', () => {
    const c = configFromContext(ctx({ stage: 'prod', sesDomain: 'Oficina.Example', serverAdmins: ' Ana@Oficina.example ,b@x.io,' }));
    assert.equal(c.mailFrom, 'Oficina <no-reply@oficina.example>');
    assert.deepEqual(c.serverAdmins, ['ana@oficina.example', 'b@x.io']);
  });

  const rejects: Array<[string, Record<string, string>, RegExp]> = [
    ['an unknown stage', { stage: 'staging' }, /stage must be dev or prod/],
    ['prod without a sender', { stage: 'prod' }, /prod needs mailFrom or sesDomain/],
    ['a domain without a certificate', { domainName: 'app.example.com' }, /go together/],
    ['a certificate without a domain', { certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc' }, /go together/],
    [
      'a certificate outside us-east-1',
      { domainName: 'app.example.com', certificateArn: 'arn:aws:acm:sa-east-1:123456789012:certificate/abc' },
      /us-east-1/,
    ],
    ['a bad domain', { domainName: 'not a domain', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc' }, /host name/],
    ['a sender off the SES domain', { sesDomain: 'oficina.example', mailFrom: 'x@other.example' }, /not on sesDomain/],
    ['a malformed sender', { mailFrom: 'Oficina <nobody>' }, /mailFrom/],
    ['a non-email admin', { serverAdmins: 'root' }, /not an email/],
    ['an http avatar origin', { avatarOrigins: 'http://avatars.example' }, /https/],
  ];
  for (const [what, values, message] of rejects) {
    it(`rejects ${what}`, () => {
      assert.throws(() => configFromContext(ctx(values)), (err: unknown) => err instanceof ConfigError && message.test(err.message));
    });
  }

  it('parses mailboxes', () => {
    assert.deepEqual(parseMailbox('Oficina <no-reply@oficina.example>'), {
      name: 'Oficina',
      address: 'no-reply@oficina.example',
      domain: 'oficina.example',
    });
    assert.deepEqual(parseMailbox('"Oficina, a loja" <a@B.example>'), { name: 'Oficina, a loja', address: 'a@B.example', domain: 'b.example' });
    assert.equal(parseMailbox('a@b.example\r\nBcc: c@d.example'), undefined);
  });
});

describe('table.json reader', () => {
  it('reads the repository table definition', () => {
    const def = loadTableDefinition();
    assert.equal(def.partitionKey.name, 'PK');
    assert.ok(def.globalSecondaryIndexes.length >= 1);
  });

  const base = {
    partitionKey: { name: 'PK', type: 'S' },
    sortKey: { name: 'SK', type: 'S' },
    globalSecondaryIndexes: [],
    streamViewType: 'NEW_AND_OLD_IMAGES',
    billingMode: 'PAY_PER_REQUEST',
  };
  const bad: Array<[string, object, RegExp]> = [
    ['provisioned billing', { ...base, billingMode: 'PROVISIONED' }, /PAY_PER_REQUEST/],
    ['local secondary indexes', { ...base, localSecondaryIndexes: [] }, /local secondary/],
    ['an unknown key type', { ...base, partitionKey: { name: 'PK', type: 'X' } }, /S, N or B/],
    ['an unknown stream view', { ...base, streamViewType: 'ALL' }, /streamViewType/],
    [
      'INCLUDE without attributes',
      { ...base, globalSecondaryIndexes: [{ indexName: 'G', partitionKey: { name: 'a', type: 'S' }, projection: 'INCLUDE' }] },
      /nonKeyAttributes/,
    ],
    [
      'duplicate index names',
      {
        ...base,
        globalSecondaryIndexes: [
          { indexName: 'G', partitionKey: { name: 'a', type: 'S' }, projection: 'ALL' },
          { indexName: 'G', partitionKey: { name: 'b', type: 'S' }, projection: 'ALL' },
        ],
      },
      /duplicate/,
    ],
  ];
  for (const [what, raw, message] of bad) {
    it(`refuses ${what}`, () => assert.throws(() => parseTableDefinition(raw), message));
  }
});

describe('SPA rewrite function', () => {
  const handler = (() => {
    const sandbox: { handler?: (e: unknown) => { uri: string } } = {};
    vm.runInNewContext(`${SPA_REWRITE_CODE}\nthis.handler = handler;`, sandbox);
    return sandbox.handler!;
  })();
  const rewrite = (uri: string) => handler({ request: { uri, method: 'GET', headers: {}, querystring: {} } }).uri;

  for (const uri of ['/', '/login', '/accounts/acc-0123456789abcdef0123456789abcdef/tickets', '/tickets/tik-01/', '/.well-known/x']) {
    it(`serves index.html for the client route ${uri}`, () => assert.equal(rewrite(uri), '/index.html'));
  }
  for (const uri of ['/index.html', '/assets/index-3f2a9c.js', '/assets/index-9b1d.css', '/favicon.ico', '/robots.txt']) {
    it(`passes the file ${uri} through`, () => assert.equal(rewrite(uri), uri));
  }
  it('fits CloudFront Functions limits (10 KB, cloudfront-js-2.0 syntax)', () => {
    assert.ok(Buffer.byteLength(SPA_REWRITE_CODE) < 10 * 1024);
    assert.doesNotMatch(SPA_REWRITE_CODE, /\b(require|import|fetch|setTimeout)\b/);
  });
});

describe('content security policy', () => {
  it('adds avatar and extra connect origins where they belong', () => {
    const csp = contentSecurityPolicy({ imageOrigins: ['https://avatars.example'], connectOrigins: ['https://files.example'] });
    assert.match(csp, /img-src 'self' data: blob: https:\/\/avatars\.example;/);
    assert.match(csp, /connect-src 'self' https:\/\/files\.example;/);
    assert.match(csp, /media-src 'self' https:;/, 'podcast episodes play from their publishers');
    assert.doesNotMatch(csp, /'unsafe-eval'/);
    assert.doesNotMatch(csp, /script-src[^;]*'unsafe-inline'/);
  });
});

/** Reads a zip's central directory back: name, mode, bytes (CRC-checked). */
function readZip(buf: Buffer): Array<{ name: string; mode: number; data: Buffer }> {
  const eocd = buf.length - 22;
  assert.equal(buf.readUInt32LE(eocd), 0x06054b50, 'end of central directory');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out = [];
  for (let i = 0; i < count; i++) {
    assert.equal(buf.readUInt32LE(p), 0x02014b50, 'central directory header');
    assert.equal(buf.readUInt16LE(p + 4) >> 8, 3, 'made by Unix, so the mode is honoured');
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    const csize = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const mode = buf.readUInt32LE(p + 38) >>> 16;
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    assert.equal(buf.readUInt32LE(local), 0x04034b50, 'local header');
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + csize);
    const data = method === 8 ? zlib.inflateRawSync(raw) : Buffer.from(raw);
    assert.equal(crc32(data), crc, `CRC of ${name}`);
    out.push({ name, mode, data });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

describe('lambda-zip', () => {
  it('computes CRC-32 like zlib', () => {
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  });

  it('writes an executable bootstrap that reads back intact, compressed when it helps', () => {
    const big = Buffer.from('oficina '.repeat(10_000));
    const files = readZip(zipEntries([{ name: 'bootstrap', data: big }, { name: 'notes.txt', data: 'x', mode: 0o644 }]));
    assert.deepEqual(
      files.map((f) => [f.name, f.mode.toString(8)]),
      [
        ['bootstrap', '100755'],
        ['notes.txt', '100644'],
      ],
    );
    assert.ok(files[0].data.equals(big));
    assert.ok(zipEntries([{ name: 'bootstrap', data: big }]).length < big.length / 10);
  });

  it('is deterministic, so unchanged code keeps its asset hash', () => {
    const a = zipEntries([{ name: 'bootstrap', data: 'same' }]);
    const b = zipEntries([{ name: 'bootstrap', data: 'same' }]);
    assert.ok(a.equals(b));
  });

  it('refuses paths that escape the archive', () => {
    assert.throws(() => zipEntries([{ name: '../bootstrap', data: '' }]), /bad entry name/);
    assert.throws(() => zipEntries([{ name: '/bootstrap', data: '' }]), /bad entry name/);
  });

  it('makes placeholder zips and a placeholder SPA for every function', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oficina-placeholder-'));
    try {
      const { lambdaDir, webDir } = writePlaceholderAssets(dir);
      for (const name of LAMBDA_FUNCTIONS) {
        const [boot] = readZip(fs.readFileSync(path.join(lambdaDir, `${name}.zip`)));
        assert.equal(boot.name, 'bootstrap');
        assert.equal(boot.mode & 0o777, 0o755);
        assert.match(boot.data.toString(), new RegExp(`functions/${name}`));
      }
      assert.ok(fs.existsSync(path.join(webDir, 'index.html')));
      assert.ok(fs.existsSync(path.join(webDir, 'assets')));
      assert.ok(writeZip(path.join(dir, 'x', 'y.zip'), [{ name: 'a', data: 'b' }]) > 0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
