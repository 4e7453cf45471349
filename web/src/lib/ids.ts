// Client-generated ids: "<prefix>-<32 hex>" (SPEC §3).

export function randomHex(bytes = 16): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function newId(prefix: string): string {
  return `${prefix}-${randomHex(16)}`;
}

export const ID_PATTERN = /^[a-z]{3}-[0-9a-f]{32}$/;

/** prefixOf returns the 3-letter kind prefix of an id ("tik" for "tik-…"). */
export function prefixOf(id: string): string {
  return id.slice(0, id.indexOf('-'));
}
