// What the import will create: the first rows with the mapping rules
// applied, each with its status; a duplicate of a record already in the
// wallet is skipped unless its "keep" box is ticked.

import { Badge, CheckboxField, Table, TableBody, TableCell, TableRow, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import { formatUnits } from '../../../lib/money';
import type { CheckResult } from '../api/import';
import { HeadRow } from '../../../components/HeadRow';

const STATUS_VARIATION = { new: 'success', duplicate: 'warning', imported: 'info' } as const;

export function UploadPreview({ check, keep, onKeep }: { check: CheckResult; keep: ReadonlySet<number>; onKeep: (line: number, kept: boolean) => void }) {
  const { t, i18n } = useTranslation();
  const money = (v: number) => formatUnits(v, i18n.language, check.currency, check.precision);
  return (
    <div className="upload-preview" role="region" aria-label={t('finance.upload.preview')} tabIndex={0}>
      <Table size="small" variation="striped" highlightOnHover data-testid="upload-preview">
        <HeadRow cells={[t('finance.upload.line'), t('finance.upload.fields.date'), t('finance.upload.fields.description'), t('finance.upload.fields.third_party'), t('finance.upload.fields.categories'), { label: t('finance.upload.amount'), end: true }, t('finance.upload.status')]} />
        <TableBody>
          {check.preview.map((r) => (
            <TableRow key={r.line} data-testid={`upload-row-${r.line}`} data-status={r.status}>
              <TableCell>{r.line}</TableCell>
              <TableCell>{formatDate(r.posted_at, i18n.language)}</TableCell>
              <TableCell>
                {/* Texts from a bank's file are shown as text, never as markup or formulas. */}
                {r.description}
                {r.rules.length > 0 ? (
                  <Text as="span" fontSize="xs" variation="tertiary" display="block">
                    {t('finance.upload.rulesApplied', { count: r.rules.length })}
                  </Text>
                ) : null}
              </TableCell>
              <TableCell>{r.third_party ?? ''}</TableCell>
              <TableCell>{(r.categories ?? []).join(', ')}</TableCell>
              <TableCell textAlign="end" className={r.klass === 'Income' ? 'amount amount--in' : 'amount amount--out'}>
                {r.klass === 'Income' ? '+' : '−'}
                {money(r.value)}
              </TableCell>
              <TableCell>
                <Badge size="small" variation={STATUS_VARIATION[r.status]}>
                  {t(`finance.upload.statuses.${r.status}`)}
                </Badge>
                {r.status === 'duplicate' ? (
                  <CheckboxField
                    label={t('finance.upload.keep')}
                    name={`keep-${r.line}`}
                    size="small"
                    checked={keep.has(r.line)}
                    onChange={(e) => onKeep(r.line, e.target.checked)}
                  />
                ) : null}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {check.rows > check.preview.length ? (
        <Text fontSize="small" variation="secondary" padding="xs">
          {t('finance.upload.more', { count: check.rows - check.preview.length })}
        </Text>
      ) : null}
    </div>
  );
}
