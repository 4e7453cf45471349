// A Group's configuration adjustments with the SPEC §3 defaults; the module
// flags the switcher and menus need come from here.

import { queryOptions, useQuery } from '@tanstack/react-query';
import { find, postDoc, putDoc, type Doc } from './couch';
import { newId } from './ids';
import type { ModuleFlags } from './module';

export const CONFIG_DEFAULTS: Record<string, string | boolean> = {
  'confirmed-plan': 'free',
  admin: false,
  checklist: 'enabled', // on in a new Group (shared/accounts)
  'project-management': 'disabled',
  budget: 'enabled',
  rdisk: 'enabled',
  textnotes: 'enabled',
  exoreader: 'disabled',
  organize3: 'disabled',
  maintenance: 'disabled',
  billing: 'disabled',
  'contract-receipt': 'on-demand',
};

export type AccountConfig = Record<string, unknown>;

export function isEnabled(v: unknown): boolean {
  return v === true || v === 'enabled' || v === 'true' || v === 'on';
}

export async function fetchAccountConfig(db: string): Promise<AccountConfig> {
  const res = await find<Doc & { key: string; value: unknown }>(db, {
    selector: { klass: 'Adjustment' },
    fields: ['_id', 'key', 'value'],
    limit: 200,
  });
  const out: AccountConfig = { ...CONFIG_DEFAULTS };
  for (const d of res.docs ?? []) if (d.key) out[d.key] = d.value;
  return out;
}

export const accountConfigQuery = (db: string) =>
  queryOptions({
    queryKey: ['account-config', db],
    queryFn: () => fetchAccountConfig(db),
    staleTime: 5 * 60_000,
    // liveKlasses('Adjustment') written out: the first route's modules stay off lib/live-deps (npm run size).
    meta: { live: { klasses: ['Adjustment'] } },
  });

export function moduleFlags(cfg: AccountConfig): ModuleFlags {
  return {
    textnotes: isEnabled(cfg.textnotes),
    organize3: isEnabled(cfg.organize3),
    exoreader: isEnabled(cfg.exoreader),
    rdisk: isEnabled(cfg.rdisk),
  };
}

/** useAccountConfig reads the active Group's configuration; defaults while loading or on failure. */
export function useAccountConfig(db: string | null): AccountConfig {
  const { data } = useQuery({ ...accountConfigQuery(db ?? ''), enabled: !!db });
  return data ?? CONFIG_DEFAULTS;
}

export interface AdjustmentDoc extends Doc {
  key: string;
  label?: string;
  value: unknown;
}

/** findAdjustment reads one configuration key's document (with _id and _rev), or null. */
export async function findAdjustment(db: string, key: string): Promise<AdjustmentDoc | null> {
  const res = await find<AdjustmentDoc>(db, { selector: { klass: 'Adjustment', key }, limit: 1 });
  return res.docs?.[0] ?? null;
}

/**
 * saveAdjustment writes one configuration key (SPEC §7): PUT the existing
 * document with ?rev=, or POST a new adj- document.
 */
export async function saveAdjustment(db: string, key: string, value: unknown): Promise<void> {
  const doc = await findAdjustment(db, key);
  if (doc) {
    await putDoc(db, { ...doc, value });
    return;
  }
  await postDoc(db, { _id: newId('adj'), klass: 'Adjustment', key, label: key, value });
}
