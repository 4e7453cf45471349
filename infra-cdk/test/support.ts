/**
 * Test helpers: synthesise the stack the way bin/oficina.ts does (same
 * context handling, cdk.json's feature flags) against placeholder assets
 * made in a temporary directory, so the tests run on a fresh clone without
 * `make lambdas` or a web build. Templates are cached per context within a
 * test file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { App, CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { configFromContext } from '../lib/config';
import { OficinaStack } from '../lib/oficina-stack';
import { type AssetDirs, temporaryPlaceholderAssets } from '../lib/placeholder-assets';

export const INFRA_DIR = path.resolve(__dirname, '..');
export const REPO_DIR = path.resolve(INFRA_DIR, '..');

const cdkJson = JSON.parse(fs.readFileSync(path.join(INFRA_DIR, 'cdk.json'), 'utf8')) as {
  context: Record<string, unknown>;
};

let assets: AssetDirs | undefined;
function placeholderAssets(): AssetDirs {
  if (!assets) {
    assets = temporaryPlaceholderAssets();
    const root = path.dirname(assets.lambdaDir);
    process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));
  }
  return assets;
}

export interface Synth {
  readonly app: App;
  readonly stack: OficinaStack;
  readonly template: Template;
  /** The raw template JSON. */
  readonly json: CfnTemplate;
}

export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown }>;
}

export interface CfnResource {
  Type: string;
  Properties?: Record<string, any>;
  DependsOn?: string[];
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

const cache = new Map<string, Synth>();

/** Synthesises the stack for the given context values (as `-c key=value` would). */
export function synth(context: Record<string, string> = {}): Synth {
  const key = JSON.stringify(context);
  const hit = cache.get(key);
  if (hit) return hit;
  const app = new App({ context: { ...cdkJson.context, ...context } });
  const config = configFromContext((k) => app.node.tryGetContext(k));
  const stack = new OficinaStack(app, `Oficina-${config.stage}`, { config, ...placeholderAssets() });
  const template = Template.fromStack(stack);
  const result = { app, stack, template, json: template.toJSON() as CfnTemplate };
  cache.set(key, result);
  return result;
}

export const PROD_CONTEXT = {
  stage: 'prod',
  domainName: 'app.oficina.example',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0f0e0d0c-1111-2222-3333-444455556666',
  serverAdmins: 'ana@oficina.example, bruno@oficina.example',
  sesDomain: 'oficina.example',
  alarmEmail: 'ops@oficina.example',
} as const;

/** Resources of a type, by logical id. */
export function resourcesOfType(json: CfnTemplate, type: string): Array<[string, CfnResource]> {
  return Object.entries(json.Resources).filter(([, r]) => r.Type === type);
}

/** The only resource of a type. */
export function only(json: CfnTemplate, type: string): [string, CfnResource] {
  const found = resourcesOfType(json, type);
  if (found.length !== 1) throw new Error(`expected one ${type}, found ${found.length}`);
  return found[0];
}

/** The only resource of a type that belongs to the API with logical id apiId (the HTTP API's, not live updates'). */
export function onlyOfApi(json: CfnTemplate, type: string, apiId: string): [string, CfnResource] {
  const found = resourcesOfType(json, type).filter(([, r]) => JSON.stringify(r.Properties?.ApiId) === JSON.stringify({ Ref: apiId }));
  if (found.length !== 1) throw new Error(`expected one ${type} of ${apiId}, found ${found.length}`);
  return found[0];
}

/** The logical id of a construct's CloudFormation resource (e.g. of stack.apiFunction). */
export function logicalIdOf(s: Synth, construct: IConstruct): string {
  const child = construct instanceof CfnElement ? construct : construct.node.defaultChild;
  if (!(child instanceof CfnElement)) throw new Error(`${construct.node.path} has no CloudFormation resource`);
  return s.stack.getLogicalId(child);
}

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
  Principal?: unknown;
}

export function actions(st: Statement): string[] {
  return Array.isArray(st.Action) ? st.Action : [st.Action];
}

/** Every statement of the inline policies attached to a role. */
export function roleStatements(json: CfnTemplate, roleLogicalId: string): Statement[] {
  const out: Statement[] = [];
  for (const [, r] of resourcesOfType(json, 'AWS::IAM::Policy')) {
    const roles = (r.Properties?.Roles ?? []) as Array<{ Ref?: string }>;
    if (roles.some((x) => x.Ref === roleLogicalId)) out.push(...(r.Properties?.PolicyDocument.Statement as Statement[]));
  }
  const role = json.Resources[roleLogicalId];
  for (const p of (role?.Properties?.Policies ?? []) as Array<{ PolicyDocument: { Statement: Statement[] } }>) {
    out.push(...p.PolicyDocument.Statement);
  }
  return out;
}

/** The role logical id of a function resource. */
export function functionRole(json: CfnTemplate, fnLogicalId: string): string {
  const role = json.Resources[fnLogicalId]?.Properties?.Role as { 'Fn::GetAtt': [string, string] };
  return role['Fn::GetAtt'][0];
}

/** All Refs and GetAtts a value mentions, as logical ids. */
export function referencedIds(v: unknown): string[] {
  const out: string[] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') {
      for (const [k, val] of Object.entries(x)) {
        if (k === 'Ref' && typeof val === 'string') out.push(val);
        else if (k === 'Fn::GetAtt' && Array.isArray(val)) out.push(String(val[0]));
        else walk(val);
      }
    }
  };
  walk(v);
  return out;
}

/** The table stream's event source mapping (the jobs queue has one too). */
export function streamMapping(json: CfnTemplate): [string, CfnResource] {
  const found = resourcesOfType(json, 'AWS::Lambda::EventSourceMapping').filter(([, r]) => r.Properties?.StartingPosition !== undefined);
  if (found.length !== 1) throw new Error(`expected one stream mapping, found ${found.length}`);
  return found[0];
}
