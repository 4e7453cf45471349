// The "[[" title completion of the page editor: what is being typed after an
// open "[[" at the caret, and the text once a title is chosen.

export interface Trigger {
  /** Index just after the "[[". */
  start: number;
  /** What was typed since, the completion's query. */
  query: string;
}

const MAX_QUERY = 80;

/**
 * completionTrigger finds an open "[[" before the caret on the same line with
 * no "]]", "|" or "[" after it; null when there is none.
 */
export function completionTrigger(text: string, caret: number): Trigger | null {
  const before = text.slice(0, caret);
  const open = before.lastIndexOf('[[');
  if (open < 0) return null;
  const query = before.slice(open + 2);
  if (query.length > MAX_QUERY || /[\]|[\n]/.test(query)) return null;
  return { start: open + 2, query };
}

/**
 * insertCompletion puts the chosen title in place of the query and closes the
 * link (reusing a "]]" already right after the caret); returns the new text and caret.
 */
export function insertCompletion(text: string, caret: number, trigger: Trigger, title: string): { text: string; caret: number } {
  const rest = text.slice(caret);
  const closes = rest.startsWith(']]') ? 2 : 0;
  const head = text.slice(0, trigger.start) + title + ']]';
  return { text: head + rest.slice(closes), caret: head.length };
}
