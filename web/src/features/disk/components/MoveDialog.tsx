import { Button, Flex, Loader, Text } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, useFieldError } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { ApiError } from '../../../lib/errors';
import { diskKeys, fetchDir, updateEntry, type CloudFile } from '../api/drive';

/** MoveDialog: browse the folders (GET /dirs) and move the entry into one. */
export function MoveDialog({ db, entry, onClose }: { db: string; entry: CloudFile; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [dirId, setDirId] = useState(entry.dir_id || '');
  const q = useQuery({ queryKey: [...diskKeys.dir(db, dirId), 'picker'], queryFn: () => fetchDir(db, dirId) });
  const m = useMutation({
    mutationFn: () => updateEntry(db, { ...entry, dir_id: dirId }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: diskKeys.all(db) });
      onClose();
    },
  });
  const err = m.error instanceof ApiError ? m.error : null;
  const fieldError = useFieldError(err);
  const dirs = (q.data?.entries ?? []).filter((e) => e.kind === 'dir');
  const path = q.data?.path ?? [];
  const inside = dirId === entry._id || path.some((p) => p._id === entry._id);
  const same = dirId === (entry.dir_id || '');
  const fieldText = fieldError('dir_id') ?? fieldError('name');
  return (
    <Modal
      open
      title={t('disk.move.title', { name: entry.name })}
      onClose={onClose}
      testId="move-dialog"
      footer={
        <Flex gap="small" justifyContent="flex-end">
          <Button onClick={onClose}>{t('disk.cancel')}</Button>
          <Button variation="primary" isDisabled={inside || same} isLoading={m.isPending} onClick={() => m.mutate()} data-testid="move-confirm">
            {t('disk.move.here')}
          </Button>
        </Flex>
      }
    >
      <nav aria-label={t('disk.path')} className="disk-picker__path">
        <Button size="small" variation="link" onClick={() => setDirId('')}>
          {t('disk.root')}
        </Button>
        {path.map((p) => (
          <span key={p._id}>
            {' / '}
            <Button size="small" variation="link" onClick={() => setDirId(p._id)}>
              {p.name}
            </Button>
          </span>
        ))}
        {q.data?.dir && !path.some((p) => p._id === q.data?.dir?._id) ? <span> / {q.data.dir.name}</span> : null}
      </nav>
      {q.isPending ? (
        <Loader ariaLabel={t('disk.loading')} />
      ) : q.isError ? (
        <ErrorAlert error={q.error instanceof ApiError ? q.error : new ApiError(0, 'error', String(q.error))} />
      ) : dirs.length === 0 ? (
        <Text variation="secondary">{t('disk.move.noFolders')}</Text>
      ) : (
        <ul className="disk-picker" role="list">
          {dirs.map((d) => (
            <li key={d._id}>
              <Button size="small" variation="link" onClick={() => setDirId(d._id)} data-testid={`move-open-${d._id}`}>
                <AppIcon name="folder" size={16} /> &nbsp;{d.name}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {inside ? (
        <Text color="font.error" role="alert" data-testid="move-inside">
          {t('disk.move.intoItself')}
        </Text>
      ) : null}
      {fieldText ? (
        <Text color="font.error" role="alert">
          {fieldText}
        </Text>
      ) : err ? (
        <ErrorAlert error={err} onDismiss={() => m.reset()} />
      ) : null}
    </Modal>
  );
}
