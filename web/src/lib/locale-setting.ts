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

// The two saves run one after the other: the adjustment's write copies the
// locale into the user document on the server, so saveUserLocale usually
// finds it there already and writes nothing. Run side by side they raced for
// the user document's revision.
export async function saveLocaleSetting(userId: string, locale: string): Promise<void> {
  let failure: unknown;
  try {
    await saveLocaleAdjustment(userId, locale);
  } catch (err) {
    failure = err;
  }
  await saveUserLocale(userId, locale);
  if (failure) throw failure;
}
