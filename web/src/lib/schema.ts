// The server's field rules (GET /api/_schema, shared/schema) and the
// client's check made from them: a form checks before sending exactly what
// the write path will, in the server's words, so the two never disagree.
// What only the server can know (does a referenced record exist, is a
// currency code on the ISO list) is left to it.

import { api } from './api';
import type { FieldErrors } from './errors';

export interface FieldRules {
  name: string;
  type: string;
  required?: boolean;
  /** Characters (string, text), bytes (url) or items (tags, items). */
  max?: number;
  min?: number;
  max_value?: number;
  enum?: string[];
  ref?: string;
  items?: FieldRules[];
  default?: unknown;
  read_only?: boolean;
}

export interface ServedSchema {
  klasses: Record<string, FieldRules[]>;
  /** Every refusal by a stable name; bounded ones hold {n}. */
  messages: Record<string, string>;
}

/** schemaQuery: the served rules, fetched once per session. */
export const schemaQuery = {
  queryKey: ['schema'],
  queryFn: () => api.get<ServedSchema>('_schema'),
  staleTime: Infinity,
  gcTime: Infinity,
};

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const COLOR_RE = /^#[0-9a-fA-F]{6}$/;
const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

const isControl = (c: string) => c < '\u0020' || c === '\u007f';
const hasControl = (s: string, allowed = '') => [...s].some((c) => isControl(c) && !allowed.includes(c));
const runes = (s: string) => [...s].length;

function validDate(s: string): boolean {
  if (!DATE_RE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

function validDateTime(s: string): boolean {
  return DATETIME_RE.test(s) && validDate(s.slice(0, 10)) && !Number.isNaN(Date.parse(s));
}

function isWebAddress(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** A plain JSON object (not a list, not null). */
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function blank(rule: FieldRules, v: unknown): boolean {
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0 && (rule.type === 'tags' || rule.type === 'list');
  return false;
}

/** Words a refusal: the named message, {n} filled with the bound. */
type Say = (name: string, n?: number) => string;

function integerMessage(v: unknown, say: Say): [number, string] {
  if (typeof v === 'number') return Number.isInteger(v) ? [v, ''] : [0, say('not_integer')];
  if (typeof v !== 'string') return [0, say('not_number')];
  const s = v.trim().replace(/^\+/, '');
  if (/^(0|-?[1-9]\d*)$/.test(s)) return [Number(s), ''];
  return s !== '' && !Number.isNaN(Number(s)) ? [0, say('not_integer')] : [0, say('not_number')];
}

function tagsMessage(v: unknown, say: Say): [number, string] {
  let raw: unknown[];
  if (typeof v === 'string') raw = v.split(',');
  else if (Array.isArray(v)) raw = v;
  else return [0, say('invalid')];
  const seen = new Set<string>();
  for (const s of raw) {
    if (typeof s !== 'string') return [0, say('invalid')];
    const tag = s.trim().split(/\s+/).filter(Boolean).join('-');
    if (!tag || seen.has(tag)) continue;
    if (runes(tag) > 60 || hasControl(tag)) return [0, say('invalid')];
    seen.add(tag);
  }
  return [seen.size, ''];
}

/** checkValue: one field's refusal, or "" (the server's Field.check). */
function checkValue(rule: FieldRules, present: boolean, value: unknown, say: Say): string {
  if (rule.read_only) return '';
  let v = value;
  if (!present && rule.default !== undefined) v = rule.default;
  if (v === undefined || v === null || blank(rule, v)) return rule.required ? say('blank') : '';
  const max = rule.max ?? 0;
  switch (rule.type) {
    case 'string':
    case 'text': {
      if (typeof v !== 'string') return say('invalid');
      const s = rule.type === 'string' ? v.trim() : v;
      if (rule.type === 'string' ? hasControl(s) : hasControl(s, '\n\r\t')) return say('invalid');
      return runes(s) > max ? say('too_long', max) : '';
    }
    case 'int':
    case 'money': {
      const [n, msg] = integerMessage(v, say);
      if (msg) return msg;
      if (rule.min !== undefined && n < rule.min) return say('min', rule.min);
      if (rule.max_value !== undefined && n > rule.max_value) return say('max', rule.max_value);
      return '';
    }
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? '' : say('not_number');
    case 'bool':
      return typeof v === 'boolean' ? '' : say('invalid');
    case 'date':
      return typeof v === 'string' && validDate(v) ? '' : say('invalid');
    case 'datetime':
      return typeof v === 'string' && validDateTime(v) ? '' : say('invalid');
    case 'enum':
      return typeof v === 'string' && (rule.enum ?? []).includes(v) ? '' : say('not_in_list');
    case 'email': {
      if (typeof v !== 'string') return say('invalid');
      const s = v.trim();
      return EMAIL_RE.test(s) && s.length <= 254 ? '' : say('invalid');
    }
    case 'url': {
      if (typeof v !== 'string') return say('invalid');
      const s = v.trim();
      if (!isWebAddress(s)) return say('invalid');
      return new TextEncoder().encode(s).length > max ? say('too_long', max) : '';
    }
    case 'color':
      return typeof v === 'string' && COLOR_RE.test(v) ? '' : say('invalid');
    case 'tags': {
      const [n, msg] = tagsMessage(v, say);
      return msg || (n > max ? say('too_many', max) : '');
    }
    case 'object':
      return isObject(v) ? '' : say('invalid');
    case 'list':
      return Array.isArray(v) ? '' : say('invalid');
    case 'ref':
    case 'member':
      // Whether it exists is the server's to say.
      return typeof v === 'string' ? '' : say('must_exist');
    case 'currency':
      return typeof v === 'string' ? '' : say('invalid');
  }
  return '';
}

/** checkItems: a list of objects, each checked against its item rules ("items[0].content"). */
function checkItems(rule: FieldRules, present: boolean, v: unknown, say: Say, errs: FieldErrors) {
  const add = (key: string, msg: string) => (errs[key] = [...(errs[key] ?? []), msg]);
  if (!present || v === undefined || v === null) {
    if (rule.required) add(rule.name, say('blank'));
    return;
  }
  if (!Array.isArray(v)) {
    add(rule.name, say('invalid'));
    return;
  }
  let kept = 0;
  v.forEach((item, i) => {
    if (!isObject(item)) {
      errs[`${rule.name}[${i}]`] = [say('invalid')];
      return;
    }
    if (item.marktodelete === true) return;
    const subs = rule.items ?? [];
    for (const k of Object.keys(item)) {
      if (k !== 'marktodelete' && !subs.some((s) => s.name === k)) errs[`${rule.name}[${i}].${k}`] = [say('invalid')];
    }
    for (const s of subs) {
      const msg = checkValue(s, s.name in item, item[s.name], say);
      if (msg) errs[`${rule.name}[${i}].${s.name}`] = [msg];
    }
    kept++;
  });
  const max = rule.max ?? 0;
  if (kept > max) add(rule.name, say('too_many', max));
  if (rule.required && kept === 0) add(rule.name, say('blank'));
}

/**
 * checkRecord: the field errors the write path would answer for values, by
 * the klass's served rules (only the named fields when `only` is given).
 */
export function checkRecord(schema: ServedSchema, klass: string, values: Record<string, unknown>, only?: readonly string[]): FieldErrors {
  const say: Say = (name, n) => (schema.messages[name] ?? name).replace('{n}', String(n ?? ''));
  const errs: FieldErrors = {};
  for (const rule of schema.klasses[klass] ?? []) {
    if (only && !only.includes(rule.name)) continue;
    const present = rule.name in values;
    if (rule.type === 'items') {
      checkItems(rule, present, values[rule.name], say, errs);
      continue;
    }
    const msg = checkValue(rule, present, values[rule.name], say);
    if (msg) errs[rule.name] = [msg];
  }
  return errs;
}

/** fieldRules: one field's served rules (undefined when the klass has no such field). */
export function fieldRules(schema: ServedSchema | undefined, klass: string, name: string): FieldRules | undefined {
  return schema?.klasses[klass]?.find((r) => r.name === name);
}
