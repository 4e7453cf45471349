import { Button, Flex, Heading, SwitchField, Text, TextAreaField, TextField } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { ApiError } from '../../../lib/errors';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { contentUrl, diskKeys, trashEntry, updateEntry, type CloudFile } from '../api/drive';
import { nameProblem } from '../names';
import { MoveDialog } from './MoveDialog';
import { VersionsPanel } from './VersionsPanel';

const asApiError = (e: unknown) => (e instanceof ApiError ? e : e ? new ApiError(0, 'error', String(e)) : null);

/** EntryPanel: the selected entry: details, edit, versions, move, download, trash. */
export function EntryPanel({ db, entry, onClose }: { db: string; entry: CloudFile; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const isFile = entry.kind === 'file';
  const [editing, setEditing] = useState(false);
  const [moving, setMoving] = useState(false);
  const [confirmTrash, setConfirmTrash] = useState(false);
  const invalidate = () => qc.invalidateQueries({ queryKey: diskKeys.all(db) });
  const trash = useMutation({
    mutationFn: () => trashEntry(db, entry._id, entry._rev),
    onSuccess: () => {
      void invalidate();
      onClose();
    },
  });
  const lang = i18n.language;

  return (
    <aside className="disk-panel" data-testid="entry-panel" aria-label={entry.name}>
      <Flex justifyContent="space-between" alignItems="flex-start" gap="small">
        <Heading level={4} className="disk-panel__title">
          {entry.color ? <span className="disk-dot" style={{ background: entry.color }} aria-hidden="true" /> : null} {entry.name}
        </Heading>
        <Button size="small" variation="link" onClick={onClose} aria-label={t('disk.panel.close')}>
          ✕
        </Button>
      </Flex>
      {entry.description ? <Text marginBottom="small">{entry.description}</Text> : null}
      <dl className="disk-facts">
        <dt>{t('disk.panel.path')}</dt>
        <dd>{entry.fullpath || entry.name}</dd>
        {isFile ? (
          <>
            <dt>{t('disk.list.size')}</dt>
            <dd>{formatBytes(entry.size ?? 0, lang)}</dd>
            <dt>{t('disk.panel.type')}</dt>
            <dd>{entry.content_type || '—'}</dd>
          </>
        ) : null}
        <dt>{t('disk.list.modified')}</dt>
        <dd>{formatDateTime(entry.updated_at ?? entry.created_at, lang)}</dd>
      </dl>
      <Flex gap="xs" wrap="wrap" marginBottom="small">
        {isFile ? (
          <a className="amplify-button amplify-button--small" href={contentUrl(db, entry._id)} download={entry.name} data-testid="entry-download">
            {t('disk.panel.download')}
          </a>
        ) : null}
        <Button size="small" onClick={() => setEditing((v) => !v)} data-testid="entry-edit">
          {t('disk.panel.edit')}
        </Button>
        <Button size="small" onClick={() => setMoving(true)} data-testid="entry-move">
          {t('disk.panel.move')}
        </Button>
        {confirmTrash ? (
          <>
            <Button size="small" variation="destructive" onClick={() => trash.mutate()} isLoading={trash.isPending} data-testid="entry-trash-confirm">
              {t('disk.panel.trashConfirm')}
            </Button>
            <Button size="small" onClick={() => setConfirmTrash(false)}>
              {t('disk.cancel')}
            </Button>
          </>
        ) : (
          <Button size="small" variation="warning" onClick={() => setConfirmTrash(true)} data-testid="entry-trash">
            {t('disk.panel.trash')}
          </Button>
        )}
      </Flex>
      <ErrorAlert error={asApiError(trash.error)} onDismiss={() => trash.reset()} />
      {editing ? <EditForm key={entry._rev} db={db} entry={entry} onDone={() => setEditing(false)} /> : null}
      {isFile ? <VersionsPanel db={db} entry={entry} /> : null}
      {moving ? <MoveDialog db={db} entry={entry} onClose={() => setMoving(false)} /> : null}
    </aside>
  );
}

function EditForm({ db, entry, onDone }: { db: string; entry: CloudFile; onDone: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const isFile = entry.kind === 'file';
  const [name, setName] = useState(entry.name);
  const [color, setColor] = useState(entry.color ?? '');
  const [description, setDescription] = useState(entry.description ?? '');
  const [starred, setStarred] = useState(!!entry.starred);
  const [maxVersions, setMaxVersions] = useState(String(entry.max_versions ?? 3));
  const [local, setLocal] = useState<Record<string, string>>({});
  const m = useMutation({
    mutationFn: (doc: CloudFile) => updateEntry(db, doc),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: diskKeys.all(db) });
      onDone();
    },
  });
  const err = asApiError(m.error);
  const fieldError = useFieldError(err);
  const fe = (f: string) => local[f] ?? fieldError(f);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    const np = nameProblem(name);
    if (np === 'required') problems.name = t('disk.name.required');
    else if (np === 'slash') problems.name = t('disk.name.slash');
    else if (np === 'dots') problems.name = t('disk.name.dots');
    else if (np === 'long') problems.name = t('disk.name.long');
    if (color && !/^#[0-9a-fA-F]{6}$/.test(color)) problems.color = t('disk.edit.colorInvalid');
    const mv = Number(maxVersions);
    if (isFile && !(Number.isInteger(mv) && mv >= 1 && mv <= 100)) problems.max_versions = t('disk.edit.maxVersionsRange');
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    const doc: CloudFile = { ...entry, name: name.trim(), description, starred };
    if (color) doc.color = color.toLowerCase();
    else delete doc.color;
    if (isFile) doc.max_versions = mv;
    m.mutate(doc);
  };

  return (
    <form onSubmit={submit} className="disk-edit" data-testid="entry-edit-form" noValidate>
      <Flex direction="column" gap="small">
        <TextField label={t('disk.edit.name')} value={name} onChange={(e) => setName(e.target.value)} hasError={!!fe('name')} errorMessage={fe('name')} />
        <Flex gap="small" alignItems="flex-end">
          <TextField
            label={t('disk.edit.color')}
            value={color}
            placeholder="#rrggbb"
            onChange={(e) => setColor(e.target.value)}
            {...errorOf(fe('color'))}
            flex="1"
          />
          <input
            type="color"
            aria-label={t('disk.edit.colorPick')}
            value={/^#[0-9a-fA-F]{6}$/.test(color) ? color : '#888888'}
            onChange={(e) => setColor(e.target.value)}
            className="disk-color"
          />
          {color ? (
            <Button size="small" variation="link" onClick={() => setColor('')}>
              {t('disk.edit.noColor')}
            </Button>
          ) : null}
        </Flex>
        <TextAreaField
          label={t('disk.edit.description')}
          value={description}
          rows={3}
          onChange={(e) => setDescription(e.target.value)}
          {...errorOf(fe('description'))}
        />
        <SwitchField label={t('disk.edit.starred')} isChecked={starred} onChange={(e) => setStarred(e.target.checked)} />
        {isFile ? (
          <TextField
            label={t('disk.edit.maxVersions')}
            type="number"
            min={1}
            max={100}
            value={maxVersions}
            onChange={(e) => setMaxVersions(e.target.value)}
            {...errorOf(fe('max_versions'))}
          />
        ) : null}
        {err && Object.keys(err.fields).length === 0 ? <ErrorAlert error={err} onDismiss={() => m.reset()} /> : null}
        <Flex gap="small">
          <Button type="submit" variation="primary" isLoading={m.isPending} data-testid="entry-save">
            {t('disk.edit.save')}
          </Button>
          <Button type="button" onClick={onDone}>
            {t('disk.cancel')}
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}

