/**
 * An evaluator of Lambda event-filtering / EventBridge patterns, for the
 * subset the stack uses, so the tests can run the stream filter against
 * real-shaped records instead of only comparing its JSON:
 *
 * - a pattern is an object; every key must match (AND), several patterns
 *   in a filter list are OR'ed (`matchesAny`);
 * - an object value descends into the event's object at that key;
 * - an array value is a list of leaf matchers, any of which may match: a
 *   literal (string, number, boolean, null), `{prefix}`, `{anything-but}`
 *   (a literal or a list of literals, or `{prefix}`) and `{exists}`.
 *
 * As AWS documents it, matchers apply to leaf values only: an object or
 * array in the event where the pattern has a matcher list is not a leaf, so
 * `exists: true` does not match it and `exists: false` does, and no other
 * matcher matches it. A missing key matches nothing but `exists: false`.
 * Anything else in a pattern throws, so an unsupported rule cannot pass a
 * test by accident.
 */

export type Pattern = { [key: string]: Pattern | Matcher[] };
export type Matcher = string | number | boolean | null | { [op: string]: unknown };

type Leaf = string | number | boolean | null;

const isLeaf = (v: unknown): v is Leaf =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function matchLeaf(m: Matcher, present: boolean, value: unknown): boolean {
  if (isLeaf(m)) return present && isLeaf(value) && value === m;
  const ops = Object.keys(m);
  if (ops.length !== 1) throw new Error(`matcher with ${ops.length} operators: ${JSON.stringify(m)}`);
  const [op] = ops;
  const arg = m[op];
  const leaf = present && isLeaf(value);
  switch (op) {
    case 'exists':
      if (typeof arg !== 'boolean') throw new Error(`exists needs a boolean: ${JSON.stringify(m)}`);
      return arg === leaf;
    case 'prefix':
      if (typeof arg !== 'string') throw new Error(`prefix needs a string: ${JSON.stringify(m)}`);
      return leaf && typeof value === 'string' && value.startsWith(arg);
    case 'anything-but': {
      if (!leaf) return false;
      if (isObject(arg)) {
        const prefix = arg.prefix;
        if (Object.keys(arg).length !== 1 || typeof prefix !== 'string') {
          throw new Error(`unsupported anything-but: ${JSON.stringify(m)}`);
        }
        return !(typeof value === 'string' && value.startsWith(prefix));
      }
      const excluded = Array.isArray(arg) ? arg : [arg];
      if (!excluded.every(isLeaf)) throw new Error(`unsupported anything-but: ${JSON.stringify(m)}`);
      return !excluded.includes(value as Leaf);
    }
    default:
      throw new Error(`unsupported matcher ${op}`);
  }
}

/** Whether event matches pattern. */
export function matches(pattern: Pattern, event: unknown): boolean {
  if (!isObject(pattern)) throw new Error(`a pattern must be an object: ${JSON.stringify(pattern)}`);
  return Object.entries(pattern).every(([key, rule]) => {
    const present = isObject(event) && Object.prototype.hasOwnProperty.call(event, key);
    const value = present ? (event as Record<string, unknown>)[key] : undefined;
    if (Array.isArray(rule)) {
      if (rule.length === 0) throw new Error(`empty matcher list at ${key}`);
      return rule.some((m) => matchLeaf(m, present, value));
    }
    if (!isObject(rule)) throw new Error(`unsupported rule at ${key}: ${JSON.stringify(rule)}`);
    // Descend; a missing or non-object value is an empty object, so only
    // exists:false rules beneath can match it.
    return matches(rule as Pattern, isObject(value) ? value : {});
  });
}

/** Whether event matches any of the patterns (a filter list is an OR). */
export function matchesAny(patterns: Pattern[], event: unknown): boolean {
  return patterns.some((p) => matches(p, event));
}
