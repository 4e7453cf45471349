// The mapping form's preview: the draft rule sent to the server (debounced)
// and what it would do to the last imported records of its target — the
// field before and after, matched rows first in the server's order.

import { Badge, Flex, Heading, Loader, Table, TableBody, TableCell, TableRow, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../components/ErrorAlert';
import { useDebounced } from '../../../components/records/RecordPicker';
import { asApiError } from '../../../lib/errors';
import { complete } from '../mapping-words';
import { draftOf, previewQuery } from '../api/mappings';
import type { Mapping } from '../api/types';
import { HeadRow } from '../../../components/HeadRow';

export const PREVIEW_DEBOUNCE_MS = 400;

export function MappingPreview({ db, mapping }: { db: string; mapping: Partial<Mapping> }) {
  const { t } = useTranslation();
  const { message } = useErrorText();
  // Debounced as a string: equal drafts are equal, so typing settles once.
  const draftText = useDebounced(JSON.stringify(draftOf(mapping)), PREVIEW_DEBOUNCE_MS);
  const draft = useMemo(() => JSON.parse(draftText) as Record<string, string>, [draftText]);
  const ready = complete(draft);
  const q = useQuery({ ...previewQuery(db, draft), enabled: !!db && ready });
  const err = q.isError ? asApiError(q.error) : null;
  const rows = q.data ?? [];
  const matched = rows.filter((r) => r.matched).length;
  return (
    <Flex as="section" direction="column" gap="xs" aria-labelledby="mapping-preview-title" data-testid="mapping-preview" aria-busy={q.isFetching}>
      <Flex alignItems="center" gap="xs">
        <Heading level={5} id="mapping-preview-title">
          {t('finance.mappings.preview.title')}
        </Heading>
        {q.isFetching ? <Loader size="small" ariaLabel={t('common.loading')} /> : null}
      </Flex>
      <Text fontSize="small" variation="secondary">
        {t('finance.mappings.preview.help')}
      </Text>
      {!ready ? (
        <Text variation="tertiary" data-testid="mapping-preview-incomplete">
          {t('finance.mappings.preview.incomplete')}
        </Text>
      ) : err ? (
        <Text variation="warning" data-testid="mapping-preview-error">
          {err.status === 404
            ? t('finance.mappings.preview.unavailable')
            : err.hasFieldErrors()
              ? Object.entries(err.fields)
                  .map(([f, msgs]) => `${t(`fields.${f}`, { defaultValue: f })}: ${msgs.map(message).join(', ')}`)
                  .join('; ')
              : message(err.reason) || t('finance.mappings.preview.unavailable')}
        </Text>
      ) : q.isPending ? null : rows.length === 0 ? (
        <Text variation="tertiary" data-testid="mapping-preview-empty">
          {t('finance.mappings.preview.none')}
        </Text>
      ) : (
        <>
          <Text fontSize="small" role="status" data-testid="mapping-preview-count">
            {t('finance.mappings.preview.count', { matched, count: rows.length })}
          </Text>
          <div className="table-scroll">
            <Table size="small" caption={t('finance.mappings.preview.title')} data-testid="mapping-preview-table">
              <HeadRow cells={[t('fields.description'), t('finance.mappings.preview.before'), t('finance.mappings.preview.after')]} />
              <TableBody>
                {rows.map((r) => (
                  <TableRow key={r.id} className={r.matched ? 'preview-row--matched' : undefined} data-testid="mapping-preview-row" data-matched={r.matched}>
                    <TableCell>
                      {r.description}
                      {r.matched ? (
                        <>
                          {' '}
                          <Badge size="small" variation="success">
                            {t('finance.mappings.preview.matched')}
                          </Badge>
                        </>
                      ) : null}
                    </TableCell>
                    <TableCell>{r.matched && r.before ? <span className="preview-before">{r.before}</span> : <Text as="span" variation="tertiary">{r.before || '—'}</Text>}</TableCell>
                    <TableCell>{r.matched ? <span className="preview-after">{r.after || '—'}</span> : <Text as="span" variation="tertiary">{t('finance.mappings.preview.unchanged')}</Text>}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </>
      )}
    </Flex>
  );
}
