import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AppIcon } from '../../../components/icons';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import type { CloudFile } from '../api/drive';

const isDir = (e: CloudFile) => e.kind === 'dir' || e.kind === 'dir_deleted';

/**
 * DiskList: the working directory's entries. A row is selected by a click,
 * Space or Enter; arrows move between rows; a folder opens by its name, a
 * double click or Enter on a selected folder.
 */
export function DiskList({
  entries,
  selectedId,
  onSelect,
  onOpen,
  onStar,
}: {
  entries: CloudFile[];
  selectedId: string | null;
  onSelect: (e: CloudFile) => void;
  onOpen: (e: CloudFile) => void;
  onStar?: (e: CloudFile) => void;
}) {
  const { t, i18n } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const lang = i18n.language;

  const focusRow = (i: number) => {
    const rows = ref.current?.querySelectorAll<HTMLElement>('[data-row]');
    rows?.[Math.max(0, Math.min(i, rows.length - 1))]?.focus();
  };

  const onKey = (e: KeyboardEvent<HTMLDivElement>, entry: CloudFile, i: number) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      focusRow(i + 1);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      focusRow(i - 1);
    } else if (e.key === ' ') {
      e.preventDefault();
      onSelect(entry);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (entry._id === selectedId && isDir(entry)) onOpen(entry);
      else onSelect(entry);
    }
  };

  return (
    <div className="disk-list" data-testid="disk-list" ref={ref} role="grid" aria-label={t('disk.list.label')}>
      <div className="disk-list__head" role="row">
        <span role="columnheader">{t('disk.list.name')}</span>
        <span role="columnheader">{t('disk.list.size')}</span>
        <span role="columnheader">{t('disk.list.modified')}</span>
        <span role="columnheader">
          <span className="visually-hidden">{t('disk.list.starred')}</span>
        </span>
      </div>
      {entries.map((entry, i) => {
        const dir = isDir(entry);
        const selected = entry._id === selectedId;
        return (
          <div
            key={entry._id}
            role="row"
            data-row
            tabIndex={0}
            aria-selected={selected}
            className={`disk-row${selected ? ' disk-row--selected' : ''}`}
            data-testid={`disk-row-${entry._id}`}
            onClick={() => onSelect(entry)}
            onDoubleClick={() => dir && onOpen(entry)}
            onKeyDown={(e) => onKey(e, entry, i)}
          >
            <span role="gridcell" className="disk-row__name">
              <AppIcon name={dir ? 'folder' : 'file'} size={18} />
              {entry.color ? <span className="disk-dot" style={{ background: entry.color }} aria-hidden="true" /> : null}
              {dir ? (
                <Link to={paths.disk(entry._id)} onClick={(e) => e.stopPropagation()} tabIndex={-1}>
                  {entry.name}
                </Link>
              ) : (
                <span>{entry.name}</span>
              )}
            </span>
            <span role="gridcell" className="disk-row__size">
              {dir ? '—' : formatBytes(entry.size ?? 0, lang)}
            </span>
            <span role="gridcell" className="disk-row__date">
              {formatDateTime(entry.updated_at ?? entry.created_at, lang)}
            </span>
            <span role="gridcell" className="disk-row__star">
              {onStar ? (
                <button
                  type="button"
                  className={`disk-star${entry.starred ? ' disk-star--on' : ''}`}
                  aria-pressed={!!entry.starred}
                  aria-label={entry.starred ? t('disk.list.unstar', { name: entry.name }) : t('disk.list.star', { name: entry.name })}
                  onClick={(e) => {
                    e.stopPropagation();
                    onStar(entry);
                  }}
                >
                  <AppIcon name="star" size={16} />
                </button>
              ) : null}
            </span>
          </div>
        );
      })}
    </div>
  );
}
