// The backups panel (SPEC §6, issue 15 §6): the Group's backups with size
// and date, a download per backup, starting one (admins; free Groups once
// a month, the server says so when refused), and restoring one into a new
// Group with a name.

import { Alert, Button, Card, Flex, Heading, Placeholder, Table, TableBody, TableCell, TableRow, Text, TextField } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, errorOf, useFieldError } from '../../../components/ErrorAlert';
import { Modal } from '../../../components/Modal';
import { AppLink } from '../../../components/RouterLink';
import { asApiError, clientValidationError, type ApiError } from '../../../lib/errors';
import { formatBytes, formatDateTime, formatNumber } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { backupsQuery, backupUrl, restoreBackup, startBackup, type Backup } from '../api/backups';
import { HeadRow } from '../../../components/HeadRow';

function RestoreModal({ db, backup, onClose }: { db: string; backup: Backup | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [local, setLocal] = useState<ApiError | null>(null);
  const m = useMutation({
    mutationFn: ({ id, n }: { id: string; n: string }) => restoreBackup(db, id, n),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['memberships'] }),
  });
  const error = local ?? (m.error ? asApiError(m.error) : null);
  const fieldError = useFieldError(error);
  const close = () => {
    setName('');
    setLocal(null);
    m.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!backup) return;
    if (!name.trim()) {
      setLocal(clientValidationError({ name: ['cant-be-blank'] }));
      return;
    }
    setLocal(null);
    m.mutate({ id: backup.id, n: name.trim() });
  };
  return (
    <Modal open={backup !== null} title={t('billing.backups.restoreTitle')} onClose={close} closeLabel={t('common.close')} testId="restore-modal">
      {m.data ? (
        <Flex direction="column" gap="small">
          <Alert variation="success" data-testid="restore-done">
            {t('billing.backups.restored', { name: name.trim() })}
          </Alert>
          <AppLink to={paths.dashboard(m.data.db)}>{t('billing.backups.openRestored')}</AppLink>
        </Flex>
      ) : (
        <form onSubmit={submit} noValidate>
          <Text marginBottom="small">{t('billing.backups.restoreText', { date: backup ? formatDateTime(backup.created_at, i18n.language) : '' })}</Text>
          {error && !fieldError('name') ? <ErrorAlert error={error} /> : null}
          <TextField
            label={t('billing.backups.newName')}
            name="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            {...errorOf(fieldError('name'))}
          />
          <div className="billing-modal__actions">
            <Button type="button" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" variation="primary" isLoading={m.isPending} data-testid="restore-confirm">
              {t('billing.backups.restore')}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}

export function BackupsPanel({ db, isAdmin }: { db: string; isAdmin: boolean }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const q = useQuery(backupsQuery(db));
  const [restoring, setRestoring] = useState<Backup | null>(null);
  const start = useMutation({
    mutationFn: () => startBackup(db),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['backups', db] }),
  });
  const lang = i18n.language;
  const list = [...(q.data ?? [])].sort((a, b) => b.created_at.localeCompare(a.created_at));
  return (
    <Card variation="outlined" as="section" aria-labelledby="backups-title" className="billing-section" data-testid="backups-panel">
      <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small" marginBottom="small">
        <Heading level={3} id="backups-title">
          {t('billing.backups.title')}
        </Heading>
        {isAdmin ? (
          <Button size="small" onClick={() => start.mutate()} isLoading={start.isPending} data-testid="backup-start">
            {t('billing.backups.start')}
          </Button>
        ) : null}
      </Flex>
      <Text variation="secondary" fontSize="small" marginBottom="small">
        {t('billing.backups.help')}
      </Text>
      {start.isSuccess ? (
        <Alert variation="info" marginBottom="small" data-testid="backup-started" isDismissible onDismiss={() => start.reset()}>
          {t('billing.backups.started')}
        </Alert>
      ) : null}
      {start.error ? <ErrorAlert error={asApiError(start.error)} onDismiss={() => start.reset()} /> : null}
      {q.isPending ? (
        <Flex direction="column" gap="small">
          <Placeholder />
          <Placeholder />
        </Flex>
      ) : q.isError ? (
        <ErrorAlert error={asApiError(q.error)} onDismiss={() => void q.refetch()} />
      ) : list.length === 0 ? (
        <Text variation="tertiary" data-testid="backups-empty">
          {t('billing.backups.empty')}
        </Text>
      ) : (
        <div className="table-scroll billing-scroll">
          <Table size="small" caption={t('billing.backups.title')} data-testid="backups-table">
            <HeadRow cells={[t('billing.backups.date'), t('billing.backups.size'), t('billing.backups.contents'), <span className="visually-hidden">{t('billing.backups.actions')}</span>]} />
            <TableBody>
              {list.map((b) => (
                <TableRow key={b.id} data-testid="backup-row">
                  <TableCell>{formatDateTime(b.created_at, lang)}</TableCell>
                  <TableCell>{formatBytes(b.size, lang)}</TableCell>
                  <TableCell>
                    {t('billing.backups.counts', { docs: formatNumber(b.docs, lang, 0), files: formatNumber(b.files, lang, 0) })}
                    {b.with_contents ? ` · ${t('billing.backups.withContents')}` : ''}
                  </TableCell>
                  <TableCell>
                    <Flex gap="small" wrap="wrap">
                      <a className="amplify-button amplify-button--small" href={backupUrl(db, b.id)} download data-testid="backup-download">
                        {t('billing.backups.download')}
                      </a>
                      {isAdmin ? (
                        <Button size="small" onClick={() => setRestoring(b)} data-testid="backup-restore">
                          {t('billing.backups.restore')}
                        </Button>
                      ) : null}
                    </Flex>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <RestoreModal db={db} backup={restoring} onClose={() => setRestoring(null)} />
    </Card>
  );
}
