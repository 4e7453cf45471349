// The user's locale setting (SPEC §7): an Adjustment in their personal db
// (PUT /{user_id}/{doc_id}?rev= with {value}, or POST /{user_id} to create
// it), and the user document's locale, which the session reports at start.

import { api, enc } from './api';
import { find, postDoc, putDoc, type Doc } from './couch';
import { ApiError } from './errors';
import { newId } from './ids';

interface Adjustment extends Doc {
  key: string;
  label?: string;
  value: unknown;
}

export async function saveLocaleAdjustment(userDb: string, locale: string): Promise<void> {
  const found = await find<Adjustment>(userDb, { selector: { klass: 'Adjustment', key: 'locale' }, limit: 1 });
  const doc = found.docs[0];
  if (doc) {
    if (doc.value === locale) return;
    await putDoc(userDb, { ...doc, value: locale });
    return;
  }
  await postDoc(userDb, { _id: newId('adj'), klass: 'Adjustment', key: 'locale', label: 'locale', value: locale });
}

/** saveUserLocale sets the user document's locale, retrying once on a stale revision. */
export async function saveUserLocale(userId: string, locale: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const u = await api.get<{ _rev: string; locale?: string }>(`_users/${enc(userId)}`, { fields: 'locale' });
    if (u.locale === locale) return;
    try {
      await api.put(`_users/${enc(userId)}`, { locale }, { rev: u._rev });
      return;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409) || attempt === 1) throw err;
    }
  }
}

export async function saveLocaleSetting(userId: string, locale: string): Promise<void> {
  const results = await Promise.allSettled([saveLocaleAdjustment(userId, locale), saveUserLocale(userId, locale)]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
