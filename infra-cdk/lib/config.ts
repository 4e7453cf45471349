/**
 * The stack's parameters. They are synth-time values (CDK context, e.g.
 * `cdk deploy -c stage=prod -c domainName=app.example.com`), not
 * CloudFormation parameters: the stage decides removal policies and the
 * domain decides whether the distribution has an alias, and both must be
 * known when the template is written. No value is ever looked up in an
 * account, so synth stays offline.
 */

export type Stage = 'dev' | 'prod';

export interface OficinaConfig {
  /** dev: everything is destroyed with the stack; prod: data is retained and protected. */
  readonly stage: Stage;
  /** Custom domain for the site (CloudFront alias), e.g. app.oficina.example. */
  readonly domainName?: string;
  /** ACM certificate for domainName; CloudFront requires it to be in us-east-1. */
  readonly certificateArn?: string;
  /** Emails of the users with server-admin rights (OFICINA_SERVER_ADMINS, comma-separated). */
  readonly serverAdmins: readonly string[];
  /** The From of every mail: "Name <address>" or an address (OFICINA_MAIL_FROM). */
  readonly mailFrom: string;
  /** Verify this whole domain in SES (DKIM); without it only the mailFrom address is verified. */
  readonly sesDomain?: string;
  /** Who receives alarm notifications (an SNS email subscription); none when unset. */
  readonly alarmEmail?: string;
  /** Origins the SPA may load avatar images from (CSP img-src). */
  readonly avatarOrigins: readonly string[];
  /**
   * An existing table to use instead of creating one (a point-in-time
   * restore, see the README's disaster recovery), with its stream.
   */
  readonly tableName?: string;
  readonly tableStreamArn?: string;
  /** The feed of product announcements dashboards show (OFICINA_SYSTEM_NOTIFICATIONS_URL); none when unset. */
  readonly systemNotificationsUrl?: string;
  /**
   * Reserved concurrency per function (0: none), so one function's flood
   * never takes the others' share of the account's quota.
   */
  readonly concurrency?: Concurrency;
}

/** The functions that get reserved concurrency, and how much each. */
export interface Concurrency {
  readonly api: number;
  readonly stream: number;
  readonly schedule: number;
  readonly worker: number;
  readonly webdav: number;
  readonly live: number;
}

/**
 * Defaults that fit the account quota AWS gives by default (1,000) with the
 * 100 it insists stay unreserved, and leave room for other stacks: 175 in
 * all. A new account may start far lower (10): ask for the quota first, or
 * set each to 0 (README, Settings).
 */
export const DEFAULT_CONCURRENCY: Concurrency = { api: 100, stream: 10, schedule: 5, worker: 20, webdav: 20, live: 20 };
/** The account's concurrency quota assumed by the check (accountConcurrency). */
export const DEFAULT_ACCOUNT_CONCURRENCY = 1000;
/** What Lambda keeps unreserved in every account. */
export const UNRESERVED_MINIMUM = 100;

/** The context keys the app reads, with what each means (see infra-cdk/README.md). */
export const CONTEXT_KEYS = {
  stage: 'dev | prod (default dev)',
  domainName: 'custom domain for the site, needs certificateArn',
  certificateArn: 'ACM certificate ARN in us-east-1 covering domainName',
  serverAdmins: 'comma-separated emails of the server admins',
  mailFrom: 'From address, "Name <addr>" or addr (default Oficina <no-reply@sesDomain>)',
  sesDomain: 'domain to verify in SES (DKIM); else the mailFrom address is verified',
  alarmEmail: 'address subscribed to the alarm topic',
  avatarOrigins: 'comma-separated https origins for avatar images (default Gravatar)',
  tableName: 'use this existing table (a restore) instead of creating one; needs tableStreamArn',
  tableStreamArn: "the existing table's stream (NEW_AND_OLD_IMAGES), for the stream function",
  systemNotificationsUrl: 'https URL of the feed of product announcements shown on dashboards',
  apiConcurrency: `reserved concurrency of the api function (default ${DEFAULT_CONCURRENCY.api}; 0: none)`,
  streamConcurrency: `reserved concurrency of the stream function (default ${DEFAULT_CONCURRENCY.stream}; 0: none)`,
  scheduleConcurrency: `reserved concurrency of the jobs dispatcher (default ${DEFAULT_CONCURRENCY.schedule}; 0: none)`,
  workerConcurrency: `reserved concurrency of the jobs worker (default ${DEFAULT_CONCURRENCY.worker}; 0: none)`,
  webdavConcurrency: `reserved concurrency of the WebDAV function (default ${DEFAULT_CONCURRENCY.webdav}; 0: none)`,
  liveConcurrency: `reserved concurrency of the live-updates function (default ${DEFAULT_CONCURRENCY.live}; 0: none)`,
  accountConcurrency: `the account's Lambda concurrency quota, checked against the reservations (default ${DEFAULT_ACCOUNT_CONCURRENCY})`,
  lambdaDir: 'directory with <name>.zip for each function (default build/lambda)',
  webDir: 'the built SPA (default web/dist)',
  placeholderAssets: 'true: synth with placeholder code and web assets (never deploy this)',
} as const;

export const DEFAULT_AVATAR_ORIGINS = ['https://www.gravatar.com', 'https://secure.gravatar.com'];

/** The dev default sender: sending fails until mailFrom or sesDomain is set, but synth works. */
export const DEV_DEFAULT_MAIL_FROM = 'Oficina <no-reply@example.com>';

const HOSTNAME = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;
const ADDRESS = /^[^\s@<>",;]+@([^\s@<>",;]+)$/;
const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;
const STREAM_ARN = /^arn:aws[a-z-]*:dynamodb:[a-z0-9-]+:\d{12}:table\/([A-Za-z0-9_.-]{3,255})\/stream\/[^/]+$/;
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[A-Za-z0-9-]+$/;

export class ConfigError extends Error {
  constructor(message: string) {
    super(`oficina config: ${message}`);
    this.name = 'ConfigError';
  }
}

/** Splits "Name <addr>" or "addr" into its parts; undefined when malformed. */
export function parseMailbox(s: string): { name?: string; address: string; domain: string } | undefined {
  const trimmed = s.trim();
  const angle = /^(.*?)\s*<([^<>]+)>$/.exec(trimmed);
  const address = (angle ? angle[2] : trimmed).trim();
  const m = ADDRESS.exec(address);
  if (!m || /[\r\n]/.test(trimmed)) return undefined;
  const name = angle?.[1]?.trim().replace(/^"(.*)"$/, '$1');
  return { ...(name ? { name } : {}), address, domain: m[1].toLowerCase() };
}

function optionalString(v: unknown, key: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ConfigError(`${key} must be a string`);
  const t = v.trim();
  return t === '' ? undefined : t;
}

function list(v: unknown, key: string): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.map((x) => String(x).trim()).filter((x) => x !== '');
  if (typeof v !== 'string') throw new ConfigError(`${key} must be a comma-separated string or a list`);
  return v
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

/**
 * Builds and validates the config from context values (`-c key=value`,
 * cdk.json or cdk.context.json), read through get.
 */
export function configFromContext(get: (key: string) => unknown): OficinaConfig {
  const stage = optionalString(get('stage'), 'stage') ?? 'dev';
  if (stage !== 'dev' && stage !== 'prod') throw new ConfigError(`stage must be dev or prod, not ${stage}`);

  const domainName = optionalString(get('domainName'), 'domainName')?.toLowerCase();
  const certificateArn = optionalString(get('certificateArn'), 'certificateArn');
  const sesDomain = optionalString(get('sesDomain'), 'sesDomain')?.toLowerCase();
  const alarmEmail = optionalString(get('alarmEmail'), 'alarmEmail');
  const serverAdmins = list(get('serverAdmins'), 'serverAdmins').map((a) => a.toLowerCase());
  const avatar = list(get('avatarOrigins'), 'avatarOrigins');
  const tableName = optionalString(get('tableName'), 'tableName');
  const tableStreamArn = optionalString(get('tableStreamArn'), 'tableStreamArn');
  const systemNotificationsUrl = optionalString(get('systemNotificationsUrl'), 'systemNotificationsUrl');
  const whole = (key: string, dflt: number): number => {
    const raw = get(key);
    const v = raw === undefined || raw === null ? '' : String(raw).trim();
    if (v === '') return dflt;
    if (!/^\d+$/.test(v)) throw new ConfigError(`${key} must be a whole number, not ${v}`);
    return Number(v);
  };
  const concurrency: Concurrency = {
    api: whole('apiConcurrency', DEFAULT_CONCURRENCY.api),
    stream: whole('streamConcurrency', DEFAULT_CONCURRENCY.stream),
    schedule: whole('scheduleConcurrency', DEFAULT_CONCURRENCY.schedule),
    worker: whole('workerConcurrency', DEFAULT_CONCURRENCY.worker),
    webdav: whole('webdavConcurrency', DEFAULT_CONCURRENCY.webdav),
    live: whole('liveConcurrency', DEFAULT_CONCURRENCY.live),
  };
  const accountConcurrency = whole('accountConcurrency', DEFAULT_ACCOUNT_CONCURRENCY);
  const reserved = Object.values(concurrency).reduce((a, b) => a + b, 0);
  if (reserved > accountConcurrency - UNRESERVED_MINIMUM) {
    throw new ConfigError(
      `the functions reserve ${reserved} concurrent executions, and an account of ${accountConcurrency} can reserve at most ${accountConcurrency - UNRESERVED_MINIMUM} (Lambda keeps ${UNRESERVED_MINIMUM} unreserved): raise the quota, or lower or zero the *Concurrency settings`,
    );
  }
  let mailFrom = optionalString(get('mailFrom'), 'mailFrom');
  if (mailFrom === undefined) {
    if (sesDomain) mailFrom = `Oficina <no-reply@${sesDomain}>`;
    else if (stage === 'prod') throw new ConfigError('prod needs mailFrom or sesDomain: mail cannot be sent without a verified SES identity');
    else mailFrom = DEV_DEFAULT_MAIL_FROM;
  }

  return validateConfig({
    stage,
    ...(domainName ? { domainName } : {}),
    ...(certificateArn ? { certificateArn } : {}),
    serverAdmins,
    mailFrom,
    ...(sesDomain ? { sesDomain } : {}),
    ...(alarmEmail ? { alarmEmail } : {}),
    avatarOrigins: avatar.length > 0 ? avatar : DEFAULT_AVATAR_ORIGINS,
    ...(tableName ? { tableName } : {}),
    ...(tableStreamArn ? { tableStreamArn } : {}),
    ...(systemNotificationsUrl ? { systemNotificationsUrl } : {}),
    concurrency,
  });
}

/** A function's reserved concurrency, or undefined for none (0). */
export function reservation(c: OficinaConfig, fn: keyof Concurrency): number | undefined {
  const n = (c.concurrency ?? DEFAULT_CONCURRENCY)[fn];
  return n > 0 ? n : undefined;
}

/** Checks a config; returns it unchanged or throws ConfigError. */
export function validateConfig(c: OficinaConfig): OficinaConfig {
  if (c.stage !== 'dev' && c.stage !== 'prod') throw new ConfigError(`stage must be dev or prod, not ${String(c.stage)}`);
  if ((c.domainName === undefined) !== (c.certificateArn === undefined)) {
    throw new ConfigError('domainName and certificateArn go together: CloudFront needs a certificate for an alias');
  }
  if (c.domainName !== undefined && !HOSTNAME.test(c.domainName)) {
    throw new ConfigError(`domainName ${c.domainName} is not a host name`);
  }
  if (c.certificateArn !== undefined) {
    const m = CERTIFICATE_ARN.exec(c.certificateArn);
    if (!m) throw new ConfigError(`certificateArn ${c.certificateArn} is not an ACM certificate ARN`);
    if (m[1] !== 'us-east-1') {
      throw new ConfigError(`certificateArn is in ${m[1]}; CloudFront only uses certificates from us-east-1`);
    }
  }
  if (c.sesDomain !== undefined && !HOSTNAME.test(c.sesDomain)) {
    throw new ConfigError(`sesDomain ${c.sesDomain} is not a domain name`);
  }
  const from = parseMailbox(c.mailFrom);
  if (!from) throw new ConfigError(`mailFrom ${JSON.stringify(c.mailFrom)} is not "Name <address>" or an address`);
  if (c.sesDomain !== undefined && from.domain !== c.sesDomain) {
    throw new ConfigError(`mailFrom ${from.address} is not on sesDomain ${c.sesDomain}, so SES would refuse to send it`);
  }
  if (c.alarmEmail !== undefined && !ADDRESS.test(c.alarmEmail)) {
    throw new ConfigError(`alarmEmail ${c.alarmEmail} is not an address`);
  }
  for (const a of c.serverAdmins) {
    if (!ADDRESS.test(a)) throw new ConfigError(`server admin ${JSON.stringify(a)} is not an email address`);
  }
  if ((c.tableName === undefined) !== (c.tableStreamArn === undefined)) {
    throw new ConfigError('tableName and tableStreamArn go together: the stream function reads that table\'s stream');
  }
  if (c.tableName !== undefined && !TABLE_NAME.test(c.tableName)) {
    throw new ConfigError(`tableName ${c.tableName} is not a DynamoDB table name`);
  }
  if (c.tableStreamArn !== undefined) {
    const m = STREAM_ARN.exec(c.tableStreamArn);
    if (!m) throw new ConfigError(`tableStreamArn ${c.tableStreamArn} is not a DynamoDB stream ARN`);
    if (m[1] !== c.tableName) throw new ConfigError(`tableStreamArn is the stream of table ${m[1]}, not of ${c.tableName}`);
  }
  if (c.systemNotificationsUrl !== undefined && !/^https:\/\/[a-z0-9.-]+(:\d+)?(\/\S*)?$/i.test(c.systemNotificationsUrl)) {
    throw new ConfigError(`systemNotificationsUrl ${c.systemNotificationsUrl} must be an https URL`);
  }
  for (const o of c.avatarOrigins) {
    if (!/^https:\/\/[a-z0-9.-]+(:\d+)?$/.test(o)) throw new ConfigError(`avatar origin ${o} must be https://host`);
  }
  return c;
}
