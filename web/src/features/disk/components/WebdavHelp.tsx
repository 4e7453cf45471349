import { Alert, Button, Heading, Text } from '@aws-amplify/ui-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { ApiError } from '../../../lib/errors';
import { useSession } from '../../../lib/session';
import { createDavToken, diskKeys, fetchUsage, webdavUrl } from '../api/drive';

/** WebdavHelp: the WebDAV address, how to connect each system, and a token. */
export function WebdavHelp({ db }: { db: string }) {
  const { t } = useTranslation();
  const session = useSession();
  const userDb = session?.userId ?? '';
  const usage = useQuery({ queryKey: diskKeys.usage(db), queryFn: () => fetchUsage(db) });
  const url = webdavUrl(window.location.origin, usage.data?.dav_url);
  const m = useMutation({ mutationFn: () => createDavToken(userDb, db, 'read-write', t('disk.webdav.tokenDescription')) });
  return (
    <section className="disk-panel" data-testid="webdav-help" aria-label={t('disk.webdav.title')}>
      <Heading level={4} marginBottom="small">
        {t('disk.webdav.title')}
      </Heading>
      <Text>{t('disk.webdav.intro')}</Text>
      <p className="disk-pre" data-testid="webdav-url">
        {url}
      </p>
      <Text>{t('disk.webdav.groupFolder')}</Text>
      <p className="disk-pre" data-testid="webdav-group-url">
        {`${url}${db}/`}
      </p>
      <Alert variation="info" marginBottom="small">
        {t('disk.webdav.note')}
      </Alert>
      <Heading level={5}>{t('disk.webdav.token.title')}</Heading>
      <Text marginBottom="xs">{t('disk.webdav.token.help')}</Text>
      {m.data ? (
        <div role="status">
          <Text fontWeight="bold">{t('disk.webdav.token.once')}</Text>
          <p className="disk-pre" data-testid="webdav-token">
            {m.data.token}
          </p>
        </div>
      ) : (
        <Button onClick={() => m.mutate()} isLoading={m.isPending} isDisabled={!userDb} data-testid="webdav-token-create">
          {t('disk.webdav.token.create')}
        </Button>
      )}
      <ErrorAlert error={m.error instanceof ApiError ? m.error : null} onDismiss={() => m.reset()} />
      <Heading level={5} marginTop="medium">
        macOS Finder
      </Heading>
      <ol>
        <li>{t('disk.webdav.mac.1')}</li>
        <li>{t('disk.webdav.mac.2', { url })}</li>
        <li>{t('disk.webdav.mac.3')}</li>
      </ol>
      <Heading level={5}>Windows Explorer</Heading>
      <ol>
        <li>{t('disk.webdav.win.1')}</li>
        <li>{t('disk.webdav.win.2', { url })}</li>
        <li>{t('disk.webdav.win.3')}</li>
      </ol>
      <Heading level={5}>Linux (davfs2)</Heading>
      <ol>
        <li>{t('disk.webdav.linux.1')}</li>
        <li>
          {t('disk.webdav.linux.2')}
          <pre className="disk-pre">{`sudo mkdir -p /mnt/oficina\nsudo mount -t davfs ${url} /mnt/oficina`}</pre>
        </li>
        <li>{t('disk.webdav.linux.3')}</li>
      </ol>
      <Heading level={5}>rclone</Heading>
      <ol>
        <li>{t('disk.webdav.rclone.1')}</li>
        <li>
          <pre className="disk-pre">{`rclone config create oficina webdav url=${url} vendor=other user=<e-mail> pass=$(rclone obscure <token>)\nrclone ls oficina:`}</pre>
        </li>
      </ol>
    </section>
  );
}
