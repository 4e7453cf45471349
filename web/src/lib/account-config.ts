// A Group's configuration adjustments with the SPEC §3 defaults; the module
// flags the switcher and menus need come from here.

import { queryOptions, useQuery } from '@tanstack/react-query';
import { find, type Doc } from './couch';
import type { ModuleFlags } from './module';

export const CONFIG_DEFAULTS: Record<string, string | boolean> = {
  'confirmed-plan': 'free',
  admin: false,
  checklist: 'disabled',
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
  queryOptions({ queryKey: ['account-config', db], queryFn: () => fetchAccountConfig(db), staleTime: 5 * 60_000 });

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
