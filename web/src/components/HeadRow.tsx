import { TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';

/** A header cell: its label, and end for a column of amounts (aligned right). */
export type HeadCell = ReactNode | { label: ReactNode; end: true };

/** HeadRow: a table's head, one header cell per entry, in order. */
export function HeadRow({ cells }: { cells: HeadCell[] }) {
  return (
    <TableHead>
      <TableRow>
        {cells.map((c, i) =>
          c !== null && typeof c === 'object' && 'end' in c ? (
            <TableCell key={i} as="th" textAlign="end">
              {c.label}
            </TableCell>
          ) : (
            <TableCell key={i} as="th">
              {c}
            </TableCell>
          ),
        )}
      </TableRow>
    </TableHead>
  );
}
