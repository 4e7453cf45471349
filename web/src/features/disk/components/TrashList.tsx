import { Button, Flex, Loader, Text } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { LoadError } from '../../../components/LoadError';
import { ApiError } from '../../../lib/errors';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { deleteTrashed, diskKeys, emptyTrash, fetchTrash, restoreEntry } from '../api/drive';
import { InlineDelete } from './InlineDelete';

/** TrashList: the trashed entries: restore, delete one, empty the trash. */
export function TrashList({ db }: { db: string }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [confirm, setConfirm] = useState<string | null>(null);
  const q = useQuery({ queryKey: diskKeys.trash(db), queryFn: () => fetchTrash(db) });
  const done = () => {
    setConfirm(null);
    void qc.invalidateQueries({ queryKey: diskKeys.all(db) });
  };
  const restore = useMutation({ mutationFn: (id: string) => restoreEntry(db, id), onSuccess: done });
  const del = useMutation({ mutationFn: (id: string) => deleteTrashed(db, id), onSuccess: done });
  const empty = useMutation({ mutationFn: () => emptyTrash(db), onSuccess: done });
  const err = (restore.error ?? del.error ?? empty.error) as unknown;
  const lang = i18n.language;
  if (q.isPending) return <Loader ariaLabel={t('disk.loading')} />;
  if (q.isError)
    return <LoadError error={q.error instanceof ApiError ? q.error : new ApiError(0, 'error', String(q.error))} onRetry={() => void q.refetch()} />;
  const entries = q.data.entries ?? [];
  return (
    <section data-testid="trash-list" aria-label={t('disk.trash.title')}>
      {err instanceof ApiError ? (
        <ErrorAlert
          error={err}
          onDismiss={() => {
            restore.reset();
            del.reset();
            empty.reset();
          }}
        />
      ) : null}
      {empty.data ? (
        <Text variation="secondary" marginBottom="small" role="status">
          {t('disk.trash.emptied', { count: empty.data.deleted, bytes: formatBytes(empty.data.bytes, lang) })}
        </Text>
      ) : null}
      {entries.length === 0 ? (
        <EmptyState icon="trash" title={t('disk.trash.none')} testId="trash-empty" />
      ) : (
        <>
          <Flex justifyContent="flex-end" gap="small" marginBottom="small">
            {confirm === '*' ? (
              <>
                <Text alignSelf="center">{t('disk.trash.emptyAsk')}</Text>
                <Button variation="destructive" onClick={() => empty.mutate()} isLoading={empty.isPending} data-testid="trash-empty-confirm">
                  {t('disk.trash.emptyConfirm')}
                </Button>
                <Button onClick={() => setConfirm(null)}>{t('disk.cancel')}</Button>
              </>
            ) : (
              <Button variation="warning" onClick={() => setConfirm('*')} data-testid="trash-empty-button">
                {t('disk.trash.empty')}
              </Button>
            )}
          </Flex>
          <ul className="disk-trash">
            {entries.map((e) => (
              <li key={e._id} data-testid={`trash-row-${e._id}`}>
                <span className="disk-row__name">
                  <AppIcon name={e.kind === 'dir_deleted' ? 'folder' : 'file'} size={18} />
                  <span>{e.fullpath || e.name}</span>
                </span>
                <Text as="span" fontSize="small" variation="secondary">
                  {e.kind === 'file_deleted' ? `${formatBytes(e.bytes ?? e.size ?? 0, lang)} · ` : ''}
                  {formatDateTime(e.updated_at, lang)}
                </Text>
                <Flex gap="xs" wrap="wrap">
                  <Button size="small" onClick={() => restore.mutate(e._id)} isLoading={restore.isPending && restore.variables === e._id}>
                    {t('disk.trash.restore')}
                  </Button>
                  <InlineDelete asking={confirm === e._id} onAsk={() => setConfirm(e._id)} onCancel={() => setConfirm(null)} onDelete={() => del.mutate(e._id)} deleting={del.isPending} label={t('disk.trash.delete')} confirmLabel={t('disk.trash.deleteConfirm')} />
                </Flex>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
