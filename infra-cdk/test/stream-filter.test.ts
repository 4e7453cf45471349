/**
 * The stream function's event filter, evaluated (test/filter-pattern.ts)
 * against records shaped as DynamoDB Streams delivers them: the samples in
 * events/ and a few built here from shared/store/dynamo's item layout. Only
 * document writes other than the consumer's own history may reach it.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { matches, matchesAny, type Pattern } from './filter-pattern';
import { REPO_DIR, streamMapping, synth } from './support';

const sample = (file: string): any[] =>
  JSON.parse(fs.readFileSync(path.join(REPO_DIR, 'events', file), 'utf8')).Records;

/** The filter patterns of the stack's one event source mapping. */
function streamPatterns(): Pattern[] {
  const [, esm] = streamMapping(synth().json);
  return (esm.Properties!.FilterCriteria as { Filters: { Pattern: string }[] }).Filters.map((f) => JSON.parse(f.Pattern));
}

const db = 'DB#acc-4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e';

/** A stream record of a document item (klass undefined: the item has none). */
function docRecord(eventName: string, id: string, klass?: string): any {
  const image: Record<string, unknown> = {
    PK: { S: db },
    SK: { S: `D#${id}` },
    rev: { S: '1-00000000000000000000000000000000' },
    seq: { N: '7' },
    deleted: { BOOL: false },
    body: { S: '{}' },
  };
  if (klass !== undefined) image.klass = { S: klass };
  return {
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: { Keys: { PK: image.PK, SK: image.SK }, NewImage: image, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  };
}

const describeRecord = (r: any) =>
  `${r.eventName} ${r.dynamodb.Keys.PK.S} ${r.dynamodb.Keys.SK.S} klass=${r.dynamodb.NewImage?.klass?.S ?? '-'}`;

describe('filter pattern evaluator', () => {
  it('matches literals, prefix, anything-but and exists on leaves', () => {
    const ev = { a: { S: 'D#x' }, n: 3, flag: true };
    assert.equal(matches({ a: { S: ['D#x'] } }, ev), true);
    assert.equal(matches({ a: { S: [{ prefix: 'D#' }] } }, ev), true);
    assert.equal(matches({ a: { S: [{ prefix: 'M' }] } }, ev), false);
    assert.equal(matches({ a: { S: [{ 'anything-but': ['D#x'] }] } }, ev), false);
    assert.equal(matches({ a: { S: [{ 'anything-but': 'other' }] } }, ev), true);
    assert.equal(matches({ a: { S: [{ 'anything-but': { prefix: 'D#' } }] } }, ev), false);
    assert.equal(matches({ n: [3], flag: [true] }, ev), true);
    assert.equal(matches({ a: { S: [{ exists: true }] } }, ev), true);
    assert.equal(matches({ a: { S: [{ exists: false }] } }, ev), false);
    assert.equal(matches({ b: { S: [{ exists: false }] } }, ev), true);
  });

  it('needs a field present for everything but exists:false', () => {
    assert.equal(matches({ b: [{ 'anything-but': ['x'] }] }, {}), false);
    assert.equal(matches({ b: [{ prefix: '' }] }, {}), false);
    assert.equal(matches({ b: { c: [{ exists: false }] } }, {}), true);
  });

  it('applies matchers to leaves only, as AWS documents: exists:false matches an object', () => {
    assert.equal(matches({ a: [{ exists: false }] }, { a: { S: 'x' } }), true);
    assert.equal(matches({ a: [{ exists: true }] }, { a: { S: 'x' } }), false);
    assert.equal(matches({ a: ['x'] }, { a: { S: 'x' } }), false);
  });

  it('refuses rules it does not implement', () => {
    assert.throws(() => matches({ a: [{ numeric: ['>', 1] }] }, { a: 2 }), /unsupported/);
    assert.throws(() => matches({ a: [] }, { a: 2 }), /empty/);
  });
});

describe('stream event filter', () => {
  it('lets document writes through, tombstones and documents without a klass included', () => {
    const patterns = streamPatterns();
    const wanted = [
      ...sample('dynamodb-stream-batch.json').filter((r) => r.dynamodb.Keys.SK.S.startsWith('D#')),
      ...sample('dynamodb-stream-delete.json').filter((r) => r.dynamodb.NewImage?.klass?.S === 'Ticket'),
      docRecord('INSERT', 'cus-00000000000000000000000000000001', 'Customer'),
      docRecord('MODIFY', 'x', undefined),
    ];
    assert.equal(wanted.length, 5);
    for (const r of wanted) assert.ok(matchesAny(patterns, r), `dropped: ${describeRecord(r)}`);
  });

  it("keeps out the consumer's own history, change rows, meta items, records and TTL removals", () => {
    const patterns = streamPatterns();
    const unwanted = [
      ...sample('dynamodb-stream-batch.json').filter((r) => !r.dynamodb.Keys.SK.S.startsWith('D#')),
      ...sample('dynamodb-stream-delete.json').filter((r) => r.dynamodb.NewImage?.klass?.S !== 'Ticket'),
      docRecord('INSERT', 'ver-00000000000000000000000000000002', 'DocumentChange'),
    ];
    const kinds = unwanted.map((r) => r.dynamodb.Keys.SK.S.replace(/[0-9a-f]{20,}$/, '…'));
    for (const k of ['R', 'C#…', 'D#ver-…', 'M']) assert.ok(kinds.includes(k), `no sample of ${k}`);
    for (const r of unwanted) assert.ok(!matchesAny(patterns, r), `delivered: ${describeRecord(r)}`);
  });
});
