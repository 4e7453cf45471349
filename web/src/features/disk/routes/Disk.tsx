// disk#index (/disk) and disk#show (/disk/{dir_id}): the active Group's file
// drive (SPEC §2 "File drive"): the working directory's path and entries,
// the quota, new folders, and the selected entry.

import { Button, Flex, Loader, Text } from '@aws-amplify/ui-react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Crumbs } from '../../../components/Crumbs';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { LoadError } from '../../../components/LoadError';
import { Page } from '../../../components/Page';
import { PageLoader } from '../../../components/PageLoader';
import { useActiveDb } from '../../../lib/active-db';
import { ApiError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { diskKeys, fetchDir, updateEntry, type CloudFile } from '../api/drive';
import { DiskList } from '../components/DiskList';
import { EntryPanel } from '../components/EntryPanel';
import { NewFolder } from '../components/NewFolder';
import { QuotaBar } from '../components/QuotaBar';
import { TrashList } from '../components/TrashList';
import { WebdavHelp } from '../components/WebdavHelp';
import { UploadQueue } from '../components/UploadQueue';
import { useUploads } from '../components/useUploads';
import '../components/disk.css';
import { useLatestSearchParams } from '../../../lib/search-params';

export function Component() {
  const db = useActiveDb();
  if (!db) return <PageLoader />;
  return <DiskScreen db={db} />;
}

function DiskScreen({ db }: { db: string }) {
  const { t } = useTranslation();
  const { dir_id: dirParam } = useParams();
  const dirId = dirParam ?? '';
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [search, setSearch] = useLatestSearchParams();
  const view = search.get('view') === 'trash' ? 'trash' : search.get('view') === 'webdav' ? 'webdav' : 'files';
  const setView = (v: 'files' | 'trash' | 'webdav') => {
    setSearch((prev) => {
      const next = new URLSearchParams(prev);
      if (v === 'files') next.delete('view');
      else next.set('view', v);
      return next;
    });
  };
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [newFolder, setNewFolder] = useState(false);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const uploads = useUploads(db);

  const onDragOver = (e: DragEvent) => {
    if (!e.dataTransfer.types.includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    uploads.add(e.dataTransfer.files, dirId);
  };

  const q = useInfiniteQuery({
    queryKey: diskKeys.dir(db, dirId),
    queryFn: ({ pageParam }) => fetchDir(db, dirId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next || undefined,
  });

  const star = useMutation({
    mutationFn: (e: CloudFile) => updateEntry(db, { ...e, starred: !e.starred }),
    onSettled: () => qc.invalidateQueries({ queryKey: diskKeys.dir(db, dirId) }),
  });

  const first = q.data?.pages[0];
  const entries = q.data?.pages.flatMap((p) => p.entries) ?? [];
  const selected = entries.find((e) => e._id === selectedId) ?? null;
  const title = first?.dir?.name ?? t('disk.title');

  const crumbs = [
    { label: t('disk.root'), to: paths.disk() },
    ...(first?.path ?? []).map((p) => ({ label: p.name, to: paths.disk(p._id) })),
  ];
  if (first?.dir && !first.path.some((p) => p._id === first.dir?._id)) crumbs.push({ label: first.dir.name, to: paths.disk(first.dir._id) });

  const open = (e: CloudFile) => {
    setSelectedId(null);
    navigate(paths.disk(e._id));
  };

  return (
    <Page
      title={title}
      breadcrumbs={<Crumbs items={crumbs} label={t('disk.path')} />}
      actions={
        <>
          <Button onClick={() => setNewFolder(true)} data-testid="disk-new-folder">
            <AppIcon name="folder" size={16} /> &nbsp;{t('disk.newFolder.button')}
          </Button>
          <Button variation="primary" onClick={() => input.current?.click()} data-testid="disk-upload">
            <AppIcon name="upload" size={16} /> &nbsp;{t('disk.upload.button')}
          </Button>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            data-testid="disk-upload-input"
            onChange={(e) => {
              if (e.target.files) uploads.add(e.target.files, dirId);
              e.target.value = '';
            }}
          />
        </>
      }
    >
      <QuotaBar db={db} />
      <div className="disk-views" role="group" aria-label={t('disk.view.label')}>
        <Button size="small" variation={view === 'files' ? 'primary' : undefined} aria-pressed={view === 'files'} onClick={() => setView('files')} data-testid="disk-view-files">
          {t('disk.view.files')}
        </Button>
        <Button size="small" variation={view === 'trash' ? 'primary' : undefined} aria-pressed={view === 'trash'} onClick={() => setView('trash')} data-testid="disk-view-trash">
          <AppIcon name="trash" size={14} /> &nbsp;{t('disk.view.trash')}
        </Button>
        <Button size="small" variation={view === 'webdav' ? 'primary' : undefined} aria-pressed={view === 'webdav'} onClick={() => setView('webdav')} data-testid="disk-view-webdav">
          {t('disk.view.webdav')}
        </Button>
      </div>
      {view === 'trash' ? <TrashList db={db} /> : view === 'webdav' ? <WebdavHelp db={db} /> : (
      <>
      {newFolder ? <NewFolder db={db} dirId={dirId} onDone={() => setNewFolder(false)} /> : null}
      <UploadQueue items={uploads.items} onRetry={uploads.retry} onRemove={uploads.remove} onClearDone={uploads.clearDone} errorOf={uploads.errorOf} />
      {star.error instanceof ApiError ? <ErrorAlert error={star.error} onDismiss={() => star.reset()} /> : null}
      <div
        className={`disk-drop${dragging ? ' disk-list--drop' : ''}`}
        onDragOver={onDragOver}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        aria-describedby="disk-drop-help"
      >
        <Text id="disk-drop-help" className="visually-hidden">
          {t('disk.upload.drop')}
        </Text>
      {q.isPending ? (
        <Flex justifyContent="center" padding="large" data-testid="disk-loading">
          <Loader size="large" ariaLabel={t('disk.loading')} />
        </Flex>
      ) : q.isError ? (
        <LoadError
          error={q.error instanceof ApiError ? q.error : new ApiError(0, 'error', String(q.error))}
          onRetry={() => void q.refetch()}
          testId="disk-error"
        />
      ) : entries.length === 0 ? (
        <EmptyState icon="folder" title={t('disk.empty.title')} message={t('disk.empty.message')} testId="disk-empty" />
      ) : (
        <div className={`disk-layout${selected ? ' disk-layout--panel' : ''}`}>
        <div className="disk-main">
          <DiskList entries={entries} selectedId={selected?._id ?? null} onSelect={(e) => setSelectedId(e._id)} onOpen={open} onStar={(e) => star.mutate(e)} />
          {q.hasNextPage ? (
            <Flex justifyContent="center" marginTop="small">
              <Button onClick={() => void q.fetchNextPage()} isLoading={q.isFetchingNextPage} data-testid="disk-more">
                {t('disk.more')}
              </Button>
            </Flex>
          ) : null}
        </div>
          {selected ? <EntryPanel key={selected._id} db={db} entry={selected} onClose={() => setSelectedId(null)} /> : null}
        </div>
      )}
      </div>
      </>
      )}
    </Page>
  );
}
