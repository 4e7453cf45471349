// RecordTable: the index list — placeholder rows while loading, an empty
// state, and a link in each row's first cell so the list is keyboard-usable;
// optionally a checkbox per row (and one for the page) for bulk actions.

import { Placeholder, Table, TableBody, TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../RouterLink';

export interface Column<T> {
  key: string;
  /** i18n key of the header. */
  label: string;
  render: (row: T) => ReactNode;
}

export interface RowSelection<T> {
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  /** The accessible name of a row's checkbox ("Select “Rent”"). */
  rowLabel: (row: T) => string;
  /** The accessible name of the page's checkbox. */
  allLabel: string;
}

export function RecordTable<T>({
  columns,
  rows,
  rowKey,
  rowLink,
  loading,
  placeholderRows = 3,
  empty,
  caption,
  selection,
  rowTestId,
}: {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  rowLink?: (row: T) => string;
  loading: boolean;
  placeholderRows?: number;
  empty: ReactNode;
  caption?: string;
  selection?: RowSelection<T>;
  rowTestId?: (row: T) => string;
}) {
  const { t } = useTranslation();
  if (!loading && rows.length === 0) return <>{empty}</>;
  const keys = rows.map(rowKey);
  const onPage = selection ? keys.filter((k) => selection.selected.has(k)).length : 0;
  const toggleAll = () => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (onPage === keys.length) keys.forEach((k) => next.delete(k));
    else keys.forEach((k) => next.add(k));
    selection.onChange(next);
  };
  const toggle = (k: string) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (next.has(k)) next.delete(k);
    else next.add(k);
    selection.onChange(next);
  };
  return (
    <div className="table-scroll">
      <Table highlightOnHover size="small" aria-label={caption} data-testid="record-table" aria-busy={loading}>
        <TableHead>
          <TableRow>
            {selection ? (
              <TableCell as="th" scope="col" className="record-table__select">
                <input
                  type="checkbox"
                  aria-label={selection.allLabel}
                  checked={!loading && keys.length > 0 && onPage === keys.length}
                  ref={(el) => {
                    if (el) el.indeterminate = onPage > 0 && onPage < keys.length;
                  }}
                  onChange={toggleAll}
                  disabled={loading}
                  data-testid="select-page"
                />
              </TableCell>
            ) : null}
            {columns.map((c) => (
              <TableCell as="th" key={c.key} scope="col">
                {t(c.label)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {loading
            ? Array.from({ length: placeholderRows }, (_, i) => (
                <TableRow key={`placeholder-${i}`}>
                  {selection ? <TableCell /> : null}
                  {columns.map((c) => (
                    <TableCell key={c.key}>
                      <Placeholder />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            : rows.map((row) => (
                <TableRow key={rowKey(row)} data-testid={rowTestId?.(row)} className={selection?.selected.has(rowKey(row)) ? 'record-table__row--selected' : undefined}>
                  {selection ? (
                    <TableCell className="record-table__select">
                      <input type="checkbox" aria-label={selection.rowLabel(row)} checked={selection.selected.has(rowKey(row))} onChange={() => toggle(rowKey(row))} />
                    </TableCell>
                  ) : null}
                  {columns.map((c, i) => (
                    <TableCell key={c.key}>
                      {i === 0 && rowLink ? <AppLink to={rowLink(row)}>{c.render(row) || t('records.untitled')}</AppLink> : c.render(row)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
        </TableBody>
      </Table>
    </div>
  );
}
