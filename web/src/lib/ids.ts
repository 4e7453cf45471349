// Client-generated ids: "<prefix>-<32 hex>" (SPEC §3).

export function randomHex(bytes = 16): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * newId is "<prefix>-" and 32 hex digits: the creation time in Unix milliseconds (12 digits), then 80 random bits,
 * as the server makes them (shared/ids.New): ids made one after another sort one after another, so the stores add
 * new documents at the end of their key order instead of at random places.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  return `${prefix}-${Math.floor(now).toString(16).padStart(12, '0').slice(-12)}${randomHex(10)}`;
}

export const ID_PATTERN = /^[a-z]{3}-[0-9a-f]{32}$/;

/** prefixOf returns the 3-letter kind prefix of an id ("tik" for "tik-…"). */
export function prefixOf(id: string): string {
  return id.slice(0, id.indexOf('-'));
}
