// Import a browser's bookmark file (Netscape HTML): the file is sent as it is
// to POST _links/import; while it runs a progress bar, then the summary with
// the entries that failed and why.

import { Alert, Button, Flex, Loader, Text } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { asApiError } from '../../../lib/errors';
import { importBookmarks, SCOPE } from '../api/bookmarks';

export function ImportPanel({ db }: { db: string }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [sent, setSent] = useState<number | null>(null);
  const run = useMutation({
    mutationFn: async (file: File) => {
      setSent(0);
      return importBookmarks(db, await file.text(), setSent);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: [SCOPE, db] }),
  });
  const r = run.data;
  return (
    <Flex direction="column" gap="small" data-testid="bookmarks-import">
      <input
        ref={input}
        type="file"
        accept=".html,.htm,text/html"
        hidden
        data-testid="bookmarks-import-file"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) run.mutate(f);
          e.target.value = '';
        }}
      />
      <Button size="small" onClick={() => input.current?.click()} isDisabled={run.isPending}>
        {t('links.import.button')}
      </Button>
      {run.isPending ? (
        <Flex direction="column" gap="xs" role="status">
          <Text>{sent !== null && sent < 1 ? t('links.import.sending', { percent: Math.round(sent * 100) }) : t('links.import.running')}</Text>
          {sent !== null && sent < 1 ? <Loader variation="linear" isDeterminate percentage={Math.round(sent * 100)} /> : <Loader variation="linear" />}
        </Flex>
      ) : null}
      {run.error ? <ErrorAlert error={asApiError(run.error)} onDismiss={() => run.reset()} /> : null}
      {r ? (
        <Alert variation={r.failed.length ? 'warning' : 'success'} isDismissible onDismiss={() => run.reset()} heading={t('links.import.done')} data-testid="bookmarks-import-summary">
          <Text>{t('links.import.summary', { created: r.created, updated: r.updated, unchanged: r.unchanged })}</Text>
          {r.failed.length ? (
            <>
              <Text>{t('links.import.failed', { count: r.failed.length + (r.more_failed ?? 0) })}</Text>
              <ul>
                {r.failed.map((f, i) => (
                  <li key={i}>
                    {(f.title || f.url) + ' — ' + f.reason}
                  </li>
                ))}
              </ul>
              {r.more_failed ? <Text>{t('links.import.moreFailed', { count: r.more_failed })}</Text> : null}
            </>
          ) : null}
        </Alert>
      ) : null}
    </Flex>
  );
}
