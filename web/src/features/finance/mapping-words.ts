// A mapping rule in a sentence of the user's language: "On expenses, when
// the description contains “UBER”, set the category list to “transport”."

import type { TFunction } from 'i18next';
import type { Mapping } from './api/types';

const W = 'finance.mappings.words';

/** complete: the rule has every part a sentence needs (what the server's preview checks too). */
export function complete(m: Partial<Mapping>): boolean {
  return !!(m.target && m.field_to_watch && m.kind_of_watch && (m.text_to_match ?? '').trim() && m.kind_of_change && m.field_to_change);
}

export function ruleInWords(m: Partial<Mapping>, t: TFunction): string {
  if (!complete(m)) return t(`${W}.incomplete`);
  const text = m.text_to_change ?? '';
  const field = t(`${W}.fields.${m.field_to_change}.the`);
  const change =
    m.kind_of_change === 'replace'
      ? text
        ? t(`${W}.change.replace`, { field, text })
        : t(`${W}.change.clear`, { field })
      : t(`${W}.change.${m.kind_of_change}`, { of: t(`${W}.fields.${m.field_to_change}.of`), text });
  return t(`${W}.sentence`, {
    target: t(`${W}.targets.${m.target}`),
    field: t(`${W}.fields.${m.field_to_watch}.the`),
    watch: t(`${W}.watch.${m.kind_of_watch}`),
    match: (m.text_to_match ?? '').trim(),
    change,
  });
}
