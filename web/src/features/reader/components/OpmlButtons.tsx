// OPML export (a download) and import (a file, sent in chunks with a
// progress bar; nested outlines become labels).

import { Alert, Button, Flex, Loader, Text, VisuallyHidden } from '@aws-amplify/ui-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { AppIcon } from '../../../components/icons';
import { asApiError } from '../../../lib/errors';
import { importOpml, opmlExportUrl, parseOpml, type ImportProgress } from '../api/opml';
import { refreshFeeds } from '../api/refresh';

export function OpmlButtons({ db }: { db: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [notOpml, setNotOpml] = useState(false);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setNotOpml(false);
    let outlines;
    try {
      outlines = parseOpml(await file.text());
    } catch {
      setNotOpml(true);
      return;
    }
    setBusy(true);
    try {
      await importOpml(db, outlines, setProgress);
      // New subscriptions get their items now rather than at the next round.
      await refreshFeeds(db).catch(() => undefined);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
      void qc.invalidateQueries({ queryKey: ['reader', db] });
    }
  };

  const pct = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  return (
    <Flex direction="column" gap="xs">
      <Flex gap="xs" wrap="wrap">
        <Button as="a" size="small" href={opmlExportUrl(db)} download="oficina-feeds.opml" data-testid="opml-export">
          <AppIcon name="outgo" /> {t('reader.opmlExport')}
        </Button>
        <Button size="small" onClick={() => input.current?.click()} isLoading={busy} loadingText={t('reader.opmlImporting')} data-testid="opml-import">
          <AppIcon name="upload" /> {t('reader.opmlImport')}
        </Button>
        <VisuallyHidden>
          <input
            ref={input}
            type="file"
            accept=".opml,.xml,text/x-opml,application/xml,text/xml"
            aria-label={t('reader.opmlImport')}
            data-testid="opml-file"
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
        </VisuallyHidden>
      </Flex>
      {progress ? (
        <div role="status" data-testid="opml-progress">
          <Flex alignItems="center" gap="xs">
            {busy ? <Loader size="small" /> : <AppIcon name="check" />}
            <progress max={progress.total} value={progress.done} aria-label={t('reader.opmlProgress')}>
              {pct}%
            </progress>
            <Text fontSize="small">{t('reader.opmlProgressText', { done: progress.done, total: progress.total })}</Text>
          </Flex>
          {!busy ? (
            <Text fontSize="small" data-testid="opml-summary">
              {t('reader.opmlSummary', {
                created: progress.created,
                updated: progress.updated,
                unchanged: progress.unchanged,
                labels: progress.labels_created,
                failed: progress.failed.length,
              })}
            </Text>
          ) : null}
          {progress.failed.length > 0 && !busy ? (
            <ul className="opml-failed">
              {progress.failed.slice(0, 20).map((f) => (
                <li key={f.url}>
                  <Text as="span" fontSize="small">
                    {f.url}: {f.reason}
                  </Text>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {notOpml ? (
        <Alert variation="error" isDismissible onDismiss={() => setNotOpml(false)} data-testid="opml-invalid">
          {t('reader.opmlInvalid')}
        </Alert>
      ) : null}
      <ErrorAlert error={error ? asApiError(error) : null} onDismiss={() => setError(null)} />
    </Flex>
  );
}
