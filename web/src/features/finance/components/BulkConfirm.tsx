// Bulk confirmation of the rows selected on a money index: the confirm
// handler is called for each selected record that is not confirmed yet,
// one after the other, with the progress shown; each failure is reported
// with the record's description and the server's reason, and stays
// selected so it can be tried again.

import { Button, Flex, Text } from '@aws-amplify/ui-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { changeState, runBulk, type BulkResult } from '../api/records';
import { SCOPE, type MoneyRecord } from '../api/types';

export function BulkConfirm({ db, rows, selected, onSelected }: { db: string; rows: readonly MoneyRecord[]; selected: ReadonlySet<string>; onSelected: (next: Set<string>) => void }) {
  const { t } = useTranslation();
  const { message } = useErrorText();
  const qc = useQueryClient();
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [outcome, setOutcome] = useState<{ results: BulkResult[]; skipped: number } | null>(null);
  const chosen = rows.filter((r) => selected.has(r._id));
  const toConfirm = chosen.filter((r) => !r.confirmed);
  const running = progress !== null;
  const byId = new Map(rows.map((r) => [r._id, r]));
  const describe = (id: string) => byId.get(id)?.description || id;

  const start = async () => {
    const ids = toConfirm.map((r) => r._id);
    const skipped = chosen.length - ids.length;
    setOutcome(null);
    setProgress({ done: 0, total: ids.length });
    const results = await runBulk(ids, (id) => changeState(db, id, 'confirm'), (done) => setProgress({ done, total: ids.length }));
    setProgress(null);
    setOutcome({ results, skipped });
    onSelected(new Set(results.filter((r) => !r.ok).map((r) => r.id)));
    await Promise.all([qc.invalidateQueries({ queryKey: [SCOPE, db] }), qc.invalidateQueries({ queryKey: ['balances', db] })]);
  };

  if (selected.size === 0 && !running && !outcome) return null;
  const failures = outcome?.results.filter((r) => !r.ok) ?? [];
  const confirmed = outcome ? outcome.results.length - failures.length : 0;
  return (
    <Flex direction="column" gap="xs" className="bulk-bar" data-testid="bulk-bar" role="region" aria-label={t('finance.bulk.label')}>
      {selected.size > 0 || running ? (
        <Flex gap="small" alignItems="center" wrap="wrap">
          <Text fontWeight="bold" data-testid="bulk-count">
            {t('finance.bulk.selected', { count: selected.size })}
          </Text>
          <Button size="small" variation="primary" onClick={() => void start()} isDisabled={running || toConfirm.length === 0} isLoading={running} loadingText={t('finance.bulk.running')} data-testid="bulk-confirm">
            <AppIcon name="check" /> {t('finance.bulk.confirm', { count: toConfirm.length })}
          </Button>
          <Button size="small" variation="link" onClick={() => onSelected(new Set())} isDisabled={running}>
            {t('finance.bulk.clear')}
          </Button>
        </Flex>
      ) : null}
      {progress ? (
        <div role="status" aria-live="polite" data-testid="bulk-progress">
          <progress className="fin-progress" value={progress.done} max={Math.max(1, progress.total)} aria-label={t('finance.bulk.running')} />
          <Text fontSize="small">{t('finance.bulk.progress', { done: progress.done, total: progress.total })}</Text>
        </div>
      ) : null}
      {outcome ? (
        <div role="status" aria-live="polite" data-testid="bulk-result">
          <Flex gap="small" alignItems="center" wrap="wrap">
            <Text fontSize="small" data-testid="bulk-confirmed">
              {t('finance.bulk.done', { count: confirmed })}
            </Text>
            {outcome.skipped > 0 ? (
              <Text fontSize="small" variation="secondary">
                {t('finance.bulk.skipped', { count: outcome.skipped })}
              </Text>
            ) : null}
            <Button size="small" variation="link" onClick={() => setOutcome(null)}>
              {t('common.close')}
            </Button>
          </Flex>
          {failures.length > 0 ? (
            <>
              <Text fontSize="small" className="fin-expense">
                {t('finance.bulk.failed', { count: failures.length })}
              </Text>
              <ul className="bulk-failures" data-testid="bulk-failures">
                {failures.map((f) => (
                  <li key={f.id} data-id={f.id}>
                    {describe(f.id)}: {message(f.error?.reason || f.error?.error || '') || t('errors.titles.error')}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
    </Flex>
  );
}
