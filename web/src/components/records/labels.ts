// How the timeline and History speak of records in plain words (issue 22
// item 9): each module declares on the server's module seam the name of its
// klasses, the labels of their fields in en and pt-BR, which fields are
// internal, and the names of the processes that write records; GET
// /api/_labels serves them. Only declared fields are ever named: a field a
// module did not label is left out, never shown by its code. Part of the
// record kit: its words (timeline.*) load with the features' screens.

import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import type { Stamp } from '../../lib/couch';

export interface Words {
  en: string;
  'pt-BR': string;
}

export interface KlassWords {
  name: Words;
  fields: Record<string, Words>;
  internal: string[];
}

export interface Vocabulary {
  klasses: Record<string, KlassWords>;
  actors: Record<string, Words>;
}

const EMPTY: Vocabulary = { klasses: {}, actors: {} };

export const labelsQuery = queryOptions({
  queryKey: ['labels'],
  queryFn: () => api.get<Vocabulary>('_labels'),
  // They change only with a deploy.
  staleTime: Infinity,
  gcTime: Infinity,
});

/** pick gives a label in the language shown (pt-BR, else English). */
export function pick(w: Words | undefined, language: string): string {
  if (!w) return '';
  return (language.startsWith('pt') ? w['pt-BR'] : w.en) || w.en;
}

/** fieldLabels names the changed fields a module labelled, in order, each once; the rest is left out. */
export function fieldLabels(v: Vocabulary, klass: string, changed: readonly string[], language: string): string[] {
  const k = v.klasses[klass];
  if (!k) return [];
  const out: string[] = [];
  for (const f of changed) {
    const label = pick(k.fields[f], language);
    if (label && !out.includes(label)) out.push(label);
  }
  return out;
}

/** isSystemActor: writes stamped by a process (ids start with "_": _reader, _wiki…), not a person. */
export function isSystemActor(who: Stamp | null | undefined): boolean {
  return !!who?._id && who._id.startsWith('_');
}

/**
 * useLabels gives the timeline's words in the language shown: a klass's
 * name, the labels of changed fields, and who made a change (a process by
 * its declared name, never its module code).
 */
export function useLabels() {
  const { t, i18n } = useTranslation();
  const q = useQuery(labelsQuery);
  const v = q.data ?? EMPTY;
  const lang = i18n.language;
  const klass = useCallback(
    (k: string) => pick(v.klasses[k]?.name, lang) || t(`klasses.${k}`, { defaultValue: t('timeline.record') }),
    [v, lang, t],
  );
  const fields = useCallback((k: string, changed: readonly string[]) => fieldLabels(v, k, changed, lang), [v, lang]);
  const who = useCallback(
    (s: Stamp | null | undefined) => {
      if (isSystemActor(s)) return pick(v.actors[s?._id ?? ''], lang) || t('timeline.system');
      return s?.label || t('timeline.someone');
    },
    [v, lang, t],
  );
  /** declared: the klass's module said how to read it (so an unlabelled field is internal, not unknown). */
  const declared = useCallback((k: string) => !!v.klasses[k], [v]);
  return useMemo(() => ({ klass, fields, who, declared, ready: q.isSuccess }), [klass, fields, who, declared, q.isSuccess]);
}
