// The files of a record (a ticket, customer or equipment): its folder of the
// Group's drive (GET/POST /api/{db}/_drive/records/{id}), listed on the
// record's show screen with a way to make the folder and to open it in the
// drive. Shared by the desk's show screens, so it reads the API itself.

import { Button, Flex, Loader, Text } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, enc } from '../../lib/api';
import { asApiError } from '../../lib/errors';
import { formatBytes } from '../../lib/format';
import { liveKlasses } from '../../lib/live-deps';
import { paths } from '../../lib/paths';
import { ErrorAlert } from '../ErrorAlert';
import { AppIcon } from '../icons';
import { ButtonLink } from '../RouterLink';

interface Entry {
  _id: string;
  name: string;
  kind: string;
  size?: number;
}

interface RecordFolder {
  record_id: string;
  folder: Entry | null;
  entries: Entry[] | null;
}

const recordPath = (db: string, id: string) => `${enc(db)}/_drive/records/${enc(id)}`;

export function RecordFiles({ db, recordId }: { db: string; recordId: string }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const key = ['disk', db, 'record', recordId];
  const q = useQuery({ queryKey: key, queryFn: () => api.get<RecordFolder>(recordPath(db, recordId)), meta: liveKlasses('CloudFile') });
  const make = useMutation({
    mutationFn: () => api.post<{ ok: boolean }>(recordPath(db, recordId), {}),
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  });
  if (q.isPending) return <Loader ariaLabel={t('records.files.loading')} />;
  if (q.isError) return <ErrorAlert error={asApiError(q.error)} />;
  const folder = q.data.folder;
  const entries = q.data.entries ?? [];
  return (
    <div data-testid="record-files">
      <ErrorAlert error={make.error ? asApiError(make.error) : null} onDismiss={() => make.reset()} />
      {!folder ? (
        <Flex direction="column" gap="xs" alignItems="flex-start">
          <Text variation="secondary">{t('records.files.none')}</Text>
          <Button size="small" onClick={() => make.mutate()} isLoading={make.isPending} data-testid="record-files-create">
            <AppIcon name="folder" /> &nbsp;{t('records.files.create')}
          </Button>
        </Flex>
      ) : (
        <Flex direction="column" gap="xs" alignItems="flex-start">
          {entries.length === 0 ? (
            <Text variation="secondary">{t('records.files.empty')}</Text>
          ) : (
            <ul className="record-files" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {entries.map((e) => (
                <li key={e._id}>
                  <AppIcon name={e.kind === 'dir' ? 'folder' : 'file'} size={16} /> {e.name}
                  {e.kind === 'file' ? <Text as="span" fontSize="small" variation="secondary"> · {formatBytes(e.size ?? 0, i18n.language)}</Text> : null}
                </li>
              ))}
            </ul>
          )}
          <ButtonLink to={paths.disk(folder._id)} size="small" data-testid="record-files-open">
            {t('records.files.open')}
          </ButtonLink>
        </Flex>
      )}
    </div>
  );
}
