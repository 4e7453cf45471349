import * as fs from 'node:fs';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { TABLE_DEFINITION_FILE } from './paths';

/**
 * The shape of shared/store/dynamo/table.json. The Go store reads the same
 * file; keep this reader strict so a change there that the stack cannot
 * express fails the synth instead of silently deploying something else.
 */
export interface TableDefinition {
  readonly partitionKey: KeyDefinition;
  readonly sortKey?: KeyDefinition;
  readonly globalSecondaryIndexes: readonly IndexDefinition[];
  readonly timeToLiveAttribute?: string;
  readonly streamViewType: StreamViewTypeName;
  readonly billingMode: 'PAY_PER_REQUEST';
}

export interface KeyDefinition {
  readonly name: string;
  readonly type: 'S' | 'N' | 'B';
}

export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyDefinition;
  readonly sortKey?: KeyDefinition;
  readonly projection: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
  readonly nonKeyAttributes?: readonly string[];
}

type StreamViewTypeName = 'NEW_AND_OLD_IMAGES' | 'NEW_IMAGE' | 'OLD_IMAGE' | 'KEYS_ONLY';

/** Reads and validates table.json. */
export function loadTableDefinition(file: string = TABLE_DEFINITION_FILE): TableDefinition {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the table definition ${file}: ${(err as Error).message}`);
  }
  return parseTableDefinition(raw, file);
}

export function parseTableDefinition(raw: unknown, source = 'table.json'): TableDefinition {
  const fail = (msg: string): never => {
    throw new Error(`${source}: ${msg}`);
  };
  const obj = (v: unknown, where: string): Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : fail(`${where} must be an object`);
  const str = (v: unknown, where: string): string =>
    typeof v === 'string' && v !== '' ? v : fail(`${where} must be a non-empty string`);
  const key = (v: unknown, where: string): KeyDefinition => {
    const o = obj(v, where);
    const type = str(o.type, `${where}.type`);
    if (type !== 'S' && type !== 'N' && type !== 'B') fail(`${where}.type must be S, N or B, not ${type}`);
    return { name: str(o.name, `${where}.name`), type: type as KeyDefinition['type'] };
  };

  const t = obj(raw, 'the definition');
  const billingMode = str(t.billingMode, 'billingMode');
  if (billingMode !== 'PAY_PER_REQUEST') fail(`billingMode must be PAY_PER_REQUEST (on-demand), not ${billingMode}`);
  const streamViewType = str(t.streamViewType, 'streamViewType');
  if (!['NEW_AND_OLD_IMAGES', 'NEW_IMAGE', 'OLD_IMAGE', 'KEYS_ONLY'].includes(streamViewType)) {
    fail(`unknown streamViewType ${streamViewType}`);
  }
  if (t.localSecondaryIndexes !== undefined) fail('local secondary indexes are not supported (the design has none)');
  const gsis = t.globalSecondaryIndexes === undefined ? [] : t.globalSecondaryIndexes;
  if (!Array.isArray(gsis)) fail('globalSecondaryIndexes must be an array');
  const indexes = (gsis as unknown[]).map((g, i): IndexDefinition => {
    const where = `globalSecondaryIndexes[${i}]`;
    const o = obj(g, where);
    const projection = str(o.projection, `${where}.projection`);
    if (projection !== 'ALL' && projection !== 'KEYS_ONLY' && projection !== 'INCLUDE') {
      fail(`${where}.projection must be ALL, KEYS_ONLY or INCLUDE`);
    }
    let nonKeyAttributes: string[] | undefined;
    if (projection === 'INCLUDE') {
      if (!Array.isArray(o.nonKeyAttributes) || o.nonKeyAttributes.length === 0) {
        fail(`${where}.nonKeyAttributes must list the attributes an INCLUDE projection carries`);
      }
      nonKeyAttributes = (o.nonKeyAttributes as unknown[]).map((a, j) => str(a, `${where}.nonKeyAttributes[${j}]`));
    }
    return {
      indexName: str(o.indexName, `${where}.indexName`),
      partitionKey: key(o.partitionKey, `${where}.partitionKey`),
      ...(o.sortKey !== undefined ? { sortKey: key(o.sortKey, `${where}.sortKey`) } : {}),
      projection: projection as IndexDefinition['projection'],
      ...(nonKeyAttributes ? { nonKeyAttributes } : {}),
    };
  });
  const names = indexes.map((g) => g.indexName);
  if (new Set(names).size !== names.length) fail('duplicate index names');

  return {
    partitionKey: key(t.partitionKey, 'partitionKey'),
    ...(t.sortKey !== undefined ? { sortKey: key(t.sortKey, 'sortKey') } : {}),
    globalSecondaryIndexes: indexes,
    ...(t.timeToLiveAttribute !== undefined ? { timeToLiveAttribute: str(t.timeToLiveAttribute, 'timeToLiveAttribute') } : {}),
    streamViewType: streamViewType as StreamViewTypeName,
    billingMode: 'PAY_PER_REQUEST',
  };
}

const ATTRIBUTE_TYPE: Record<KeyDefinition['type'], dynamodb.AttributeType> = {
  S: dynamodb.AttributeType.STRING,
  N: dynamodb.AttributeType.NUMBER,
  B: dynamodb.AttributeType.BINARY,
};

const PROJECTION: Record<IndexDefinition['projection'], dynamodb.ProjectionType> = {
  ALL: dynamodb.ProjectionType.ALL,
  KEYS_ONLY: dynamodb.ProjectionType.KEYS_ONLY,
  INCLUDE: dynamodb.ProjectionType.INCLUDE,
};

const STREAM: Record<StreamViewTypeName, dynamodb.StreamViewType> = {
  NEW_AND_OLD_IMAGES: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
  NEW_IMAGE: dynamodb.StreamViewType.NEW_IMAGE,
  OLD_IMAGE: dynamodb.StreamViewType.OLD_IMAGE,
  KEYS_ONLY: dynamodb.StreamViewType.KEYS_ONLY,
};

export function attribute(k: KeyDefinition): dynamodb.Attribute {
  return { name: k.name, type: ATTRIBUTE_TYPE[k.type] };
}

/** The table-level CDK props the definition determines. */
export function tableSchemaProps(def: TableDefinition): Pick<
  dynamodb.TableProps,
  'partitionKey' | 'sortKey' | 'billingMode' | 'stream' | 'timeToLiveAttribute'
> {
  return {
    partitionKey: attribute(def.partitionKey),
    ...(def.sortKey ? { sortKey: attribute(def.sortKey) } : {}),
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    stream: STREAM[def.streamViewType],
    ...(def.timeToLiveAttribute ? { timeToLiveAttribute: def.timeToLiveAttribute } : {}),
  };
}

/** The GSIs the definition lists, as CDK props. */
export function globalSecondaryIndexProps(def: TableDefinition): dynamodb.GlobalSecondaryIndexProps[] {
  return def.globalSecondaryIndexes.map((g) => ({
    indexName: g.indexName,
    partitionKey: attribute(g.partitionKey),
    ...(g.sortKey ? { sortKey: attribute(g.sortKey) } : {}),
    projectionType: PROJECTION[g.projection],
    ...(g.nonKeyAttributes ? { nonKeyAttributes: [...g.nonKeyAttributes] } : {}),
  }));
}
