// A ticket's checklist: its items with progress; ticking one goes through
// the server's toggle handler (which refuses an item that changed under us).

import { CheckboxField, Flex, Loader, Text } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { asApiError } from '../../../lib/errors';
import { checklistQuery, toggleChecklistItem } from '../api/tickets';
import type { Checklist } from '../api/types';

export function ProgressBar({ done, total, label }: { done: number; total: number; label: string }) {
  const pct = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <div className="checklist-progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={total} aria-valuenow={done}>
      <span className="checklist-progress__bar" style={{ width: `${pct}%` }} />
    </div>
  );
}

export function ChecklistPanel({ db, ticketId }: { db: string; ticketId: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = checklistQuery(db, ticketId).queryKey;
  const q = useQuery(checklistQuery(db, ticketId));
  const toggle = useMutation({
    mutationFn: (v: { index: number; text: string; done: boolean }) => toggleChecklistItem(db, q.data?._id ?? '', v.index, v.text, v.done),
    onMutate: async (v) => {
      await qc.cancelQueries({ queryKey: key });
      const prev = qc.getQueryData<Checklist | null>(key);
      qc.setQueryData<Checklist | null>(key, (old) =>
        old ? { ...old, payload: (old.payload ?? []).map((it, i) => (i === v.index ? { ...it, done: v.done } : it)) } : old,
      );
      return { prev };
    },
    onError: (_e, _v, ctx) => qc.setQueryData(key, ctx?.prev ?? null),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: key });
      void qc.invalidateQueries({ queryKey: ['tickets', db, 'doc', ticketId] });
      void qc.invalidateQueries({ queryKey: ['history', db, ticketId] });
    },
  });
  if (q.isPending) return <Loader />;
  const items = q.data?.payload ?? [];
  if (!q.data || items.length === 0) {
    return (
      <Text variation="tertiary" data-testid="checklist-empty">
        {t('tickets.noChecklist')}
      </Text>
    );
  }
  const done = items.filter((i) => i.done).length;
  return (
    <Flex direction="column" gap="xs" data-testid="checklist">
      <Text fontSize="small" data-testid="checklist-progress">
        {t('tickets.checklistProgress', { done, total: items.length })}
      </Text>
      <ProgressBar done={done} total={items.length} label={t('tickets.checklist')} />
      <ErrorAlert error={toggle.error ? asApiError(toggle.error) : null} onDismiss={() => toggle.reset()} />
      {items.map((it, i) => (
        <CheckboxField
          key={`${i}-${it.text}`}
          name={`check-${i}`}
          label={it.text}
          value="done"
          checked={it.done}
          onChange={(e) => toggle.mutate({ index: i, text: it.text, done: e.target.checked })}
          data-testid={`checklist-item-${i}`}
        />
      ))}
    </Flex>
  );
}
