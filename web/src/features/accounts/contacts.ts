// Phones and addresses (SPEC §3): each list is ONE adjustment whose value is
// a JSON array; new, edit and delete rewrite the whole list.

export const PHONE_FIELDS = ['main', 'description', 'number'] as const;
export const ADDRESS_FIELDS = ['main', 'description', 'zip_code', 'street', 'number', 'neighborhood', 'complement', 'city', 'state'] as const;

export type Contact = Record<string, string | boolean | undefined>;

/** parseContacts reads the adjustment's value: an array, or a JSON string of one. */
export function parseContacts(value: unknown): Contact[] {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is Contact => !!x && typeof x === 'object' && !Array.isArray(x));
}

/** upsertContact puts item at index (or appends it); a main item makes the others not main. */
export function upsertContact(list: Contact[], item: Contact, index: number | null): Contact[] {
  const next = list.map((c) => ({ ...c }));
  const clean: Contact = { ...item };
  delete clean.marktodelete;
  if (index === null || index < 0 || index >= next.length) next.push(clean);
  else next[index] = clean;
  if (clean.main === true) {
    const at = index === null || index < 0 || index >= list.length ? next.length - 1 : index;
    next.forEach((c, i) => {
      if (i !== at) c.main = false;
    });
  }
  return next;
}

export function removeContact(list: Contact[], index: number): Contact[] {
  return list.filter((_, i) => i !== index);
}
