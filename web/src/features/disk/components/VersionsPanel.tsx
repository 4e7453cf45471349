import { Button, Flex, Heading, Loader, Text } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { ApiError } from '../../../lib/errors';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { contentUrl, deleteVersion, diskKeys, fetchVersions, restoreVersion, type CloudFile } from '../api/drive';
import { InlineDelete } from './InlineDelete';

/** VersionsPanel: a file's kept versions (newest first): download, restore, delete. */
export function VersionsPanel({ db, entry }: { db: string; entry: CloudFile }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [confirm, setConfirm] = useState<string | null>(null);
  const q = useQuery({ queryKey: [...diskKeys.versions(db, entry._id), entry._rev], queryFn: () => fetchVersions(db, entry._id) });
  const done = () => {
    setConfirm(null);
    void qc.invalidateQueries({ queryKey: diskKeys.all(db) });
  };
  const restore = useMutation({ mutationFn: (v: string) => restoreVersion(db, entry._id, v, q.data?.rev), onSuccess: done });
  const del = useMutation({ mutationFn: (v: string) => deleteVersion(db, entry._id, v, q.data?.rev), onSuccess: done });
  const err = (restore.error ?? del.error) as unknown;
  const lang = i18n.language;
  // The server lists them newest first (a restored version is the newest though its time may tie).
  const list = q.data?.versions ?? [];
  return (
    <section className="disk-versions" data-testid="versions-panel" aria-label={t('disk.versions.title')}>
      <Heading level={5} marginTop="medium" marginBottom="xs">
        {t('disk.versions.title')}
        {q.data ? <Text as="span" fontSize="small" variation="secondary"> · {t('disk.versions.kept', { count: q.data.max_versions })}</Text> : null}
      </Heading>
      {err instanceof ApiError ? (
        <ErrorAlert
          error={err}
          onDismiss={() => {
            restore.reset();
            del.reset();
          }}
        />
      ) : null}
      {q.isPending ? (
        <Loader ariaLabel={t('disk.loading')} />
      ) : q.isError ? (
        <ErrorAlert error={q.error instanceof ApiError ? q.error : new ApiError(0, 'error', String(q.error))} />
      ) : list.length === 0 ? (
        <Text variation="secondary">{t('disk.versions.none')}</Text>
      ) : (
        <ul className="disk-versions__list">
          {list.map((v, i) => (
            <li key={v.id} data-testid={`version-row-${v.id}`}>
              <Text fontSize="small">
                {i === 0 ? <strong>{t('disk.versions.current')} · </strong> : null}
                {formatDateTime(v.modified, lang)} · {formatBytes(v.size, lang)}
                {v.by?.label ? ` · ${v.by.label}` : ''}
                {v.restored_from ? ` · ${t('disk.versions.restoredFrom', { id: v.restored_from })}` : ''}
              </Text>
              <Flex gap="xs" wrap="wrap">
                <a className="amplify-button amplify-button--small amplify-button--link" href={contentUrl(db, entry._id, v.id)} download={entry.name}>
                  {t('disk.panel.download')}
                </a>
                {i > 0 ? (
                  <Button size="small" variation="link" onClick={() => restore.mutate(v.id)} isLoading={restore.isPending && restore.variables === v.id}>
                    {t('disk.versions.restore')}
                  </Button>
                ) : null}
                {list.length > 1 ? (
                  <InlineDelete asking={confirm === v.id} onAsk={() => setConfirm(v.id)} onCancel={() => setConfirm(null)} onDelete={() => del.mutate(v.id)} deleting={del.isPending} label={t('disk.versions.delete')} confirmLabel={t('disk.versions.deleteConfirm')} />
                ) : null}
              </Flex>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
