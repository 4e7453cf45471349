// A small line diff (longest common subsequence over lines) for the history
// panel and the conflict view. Common head and tail are trimmed first, so the
// quadratic table only covers the changed middle; past LIMIT cells the middle
// is shown as all removed then all added.

export type DiffOp = 'same' | 'add' | 'del';

export interface DiffLine {
  op: DiffOp;
  text: string;
}

const LIMIT = 4_000_000;

export function splitLines(s: string): string[] {
  if (s === '') return [];
  return s.replace(/\r\n?/g, '\n').split('\n');
}

/** lineDiff turns `from` into `to`: unchanged, removed (del) and added lines in order. */
export function lineDiff(from: string, to: string): DiffLine[] {
  const a = splitLines(from);
  const b = splitLines(to);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const out: DiffLine[] = a.slice(0, start).map((text) => ({ op: 'same', text }));
  const ma = a.slice(start, endA);
  const mb = b.slice(start, endB);
  const n = ma.length;
  const m = mb.length;
  if (n * m > LIMIT) {
    ma.forEach((text) => out.push({ op: 'del', text }));
    mb.forEach((text) => out.push({ op: 'add', text }));
  } else {
    // lcs[i][j] = LCS length of ma[i..] and mb[j..]
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * w + j] = ma[i] === mb[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (ma[i] === mb[j]) {
        out.push({ op: 'same', text: ma[i]! });
        i++;
        j++;
      } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) {
        out.push({ op: 'del', text: ma[i++]! });
      } else {
        out.push({ op: 'add', text: mb[j++]! });
      }
    }
    while (i < n) out.push({ op: 'del', text: ma[i++]! });
    while (j < m) out.push({ op: 'add', text: mb[j++]! });
  }
  a.slice(endA).forEach((text) => out.push({ op: 'same', text }));
  return out;
}

/** diffStats counts the added and removed lines. */
export function diffStats(d: DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of d) {
    if (l.op === 'add') added++;
    else if (l.op === 'del') removed++;
  }
  return { added, removed };
}
