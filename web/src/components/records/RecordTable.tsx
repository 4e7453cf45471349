// RecordTable: the index list — placeholder rows while loading, an empty
// state, and a link in each row's first cell so the list is keyboard-usable.

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

export function RecordTable<T>({
  columns,
  rows,
  rowKey,
  rowLink,
  loading,
  placeholderRows = 3,
  empty,
  caption,
}: {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  rowLink?: (row: T) => string;
  loading: boolean;
  placeholderRows?: number;
  empty: ReactNode;
  caption?: string;
}) {
  const { t } = useTranslation();
  if (!loading && rows.length === 0) return <>{empty}</>;
  return (
    <div className="table-scroll">
      <Table highlightOnHover size="small" aria-label={caption} data-testid="record-table" aria-busy={loading}>
        <TableHead>
          <TableRow>
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
                  {columns.map((c) => (
                    <TableCell key={c.key}>
                      <Placeholder />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            : rows.map((row) => (
                <TableRow key={rowKey(row)}>
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
