/** ticketTitle (SPEC §3, as the server derives it): the first line of the problem, or its first 60 characters. */
export function ticketTitle(content: unknown): string {
  const s = typeof content === 'string' ? content.trim() : '';
  const first = [...(s.split(/\r?\n/)[0] ?? '')];
  return first.length > 60 || first.length === 0 ? [...s].slice(0, 60).join('') : first.join('');
}
