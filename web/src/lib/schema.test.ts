// The client's checks and the server's agree: every probe value the Go test
// (shared/app TestSchemaProbes) ran through the write path's rules is run
// through checkRecord, and the field errors must be the same, for every
// served klass — so for every klass a form of the kit renders.

import { describe, expect, it } from 'vitest';
import probes from '../test/schema-probes.json';
import served from '../test/schema.json';
import { checkRecord, type ServedSchema } from './schema';

interface Probe {
  klass: string;
  field: string;
  value?: unknown;
  prefix?: string;
  repeat?: number;
  errors: Record<string, string[]>;
}

const schema = served as ServedSchema;
const sorted = (e: Record<string, string[]>) => JSON.stringify(Object.entries(e).sort(([a], [b]) => a.localeCompare(b)));

describe('checkRecord agrees with the write path', () => {
  const byKlass = new Map<string, Probe[]>();
  for (const p of probes as Probe[]) byKlass.set(p.klass, [...(byKlass.get(p.klass) ?? []), p]);

  it('has probes for every served klass', () => {
    expect([...byKlass.keys()].sort()).toEqual(Object.keys(schema.klasses).filter((k) => schema.klasses[k]!.length > 0).sort());
  });

  for (const [klass, list] of byKlass) {
    it(`answers ${klass}'s ${list.length} probes as the server did`, () => {
      const wrong: string[] = [];
      for (const p of list) {
        const value = p.repeat ? `${p.prefix ?? ''}${'x'.repeat(p.repeat)}` : p.value === undefined ? null : p.value;
        const got = checkRecord(schema, klass, { [p.field]: value }, [p.field]);
        if (sorted(got) !== sorted(p.errors)) {
          wrong.push(`${p.field} = ${JSON.stringify(value).slice(0, 60)}: client ${JSON.stringify(got)}, server ${JSON.stringify(p.errors)}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});
