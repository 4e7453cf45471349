// A line diff as a list: removed lines struck through, added lines marked.

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { diffStats, lineDiff } from '../line-diff';

export function DiffView({ from, to, testId }: { from: string; to: string; testId?: string }) {
  const { t } = useTranslation();
  const d = useMemo(() => lineDiff(from, to), [from, to]);
  const s = diffStats(d);
  return (
    <div data-testid={testId}>
      <p className="wiki-diff__stats">{t('wiki.diff.stats', { added: s.added, removed: s.removed })}</p>
      {s.added === 0 && s.removed === 0 ? <p>{t('wiki.diff.same')}</p> : null}
      <ol className="wiki-diff">
        {d.map((l, i) => (
          <li key={i} className={l.op === 'same' ? undefined : `wiki-diff__${l.op}`}>
            <span className="visually-hidden">{l.op === 'add' ? t('wiki.diff.added') : l.op === 'del' ? t('wiki.diff.removed') : ''}</span>
            {l.op === 'add' ? '+ ' : l.op === 'del' ? '− ' : '  '}
            {l.text || '\u00a0'}
          </li>
        ))}
      </ol>
    </div>
  );
}
