// An estimate's lines as a table with the total (the show screen and the
// customer's approval page); on a phone the unit value gives way.

import { Table, TableBody, TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { MoneyText } from '../../../components/records/Money';
import { lineTotal, type EstimateItem } from '../api/servicedocs';

/** currency is the Group's (useGroupCurrency in the app, the shop's on the public page). */
export function EstimateLines({ items, total, currency, testId, totalTestId }: { items: EstimateItem[]; total: number | undefined; currency: string; testId: string; totalTestId: string }) {
  const { t } = useTranslation();
  return (
    <div className="table-scroll">
      <Table size="small" data-testid={testId} aria-label={t('docs.items')}>
        <TableHead>
          <TableRow>
            <TableCell as="th">{t('docs.itemDescription')}</TableCell>
            <TableCell as="th">{t('docs.quantity')}</TableCell>
            <TableCell as="th" className="hide-narrow">
              {t('docs.unitValue')}
            </TableCell>
            <TableCell as="th">{t('docs.lineTotal')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {items.map((it, i) => (
            <TableRow key={i}>
              <TableCell>{it.description}</TableCell>
              <TableCell>{it.quantity}</TableCell>
              <TableCell className="hide-narrow">
                <MoneyText units={it.value} currency={currency} />
              </TableCell>
              <TableCell>
                <MoneyText units={lineTotal(it)} currency={currency} />
              </TableCell>
            </TableRow>
          ))}
          <TableRow>
            <TableCell colSpan={2}>
              <strong>{t('docs.total')}</strong>
            </TableCell>
            <TableCell className="hide-narrow" />
            <TableCell data-testid={totalTestId}>
              <strong>
                <MoneyText units={total} currency={currency} />
              </strong>
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
    </div>
  );
}
