import { Button, Flex, Heading, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../components/ErrorAlert';
import type { ApiError } from '../../../lib/errors';
import { formatBytes } from '../../../lib/format';
import { percent, type UploadItem } from '../upload-plan';

/** UploadQueue: each file's stage, progress bar, and retry or remove. */
export function UploadQueue({
  items,
  onRetry,
  onRemove,
  onClearDone,
  errorOf,
}: {
  items: UploadItem[];
  onRetry: (key: string) => void;
  onRemove: (key: string) => void;
  onClearDone: () => void;
  errorOf: (key: string) => ApiError | undefined;
}) {
  const { t, i18n } = useTranslation();
  const { title, message } = useErrorText();
  if (items.length === 0) return null;
  const stageLabel = (s: UploadItem['stage']) =>
    s === 'queue'
      ? t('disk.upload.stage.queue')
      : s === 'add'
        ? t('disk.upload.stage.add')
        : s === 'uploading'
          ? t('disk.upload.stage.uploading')
          : s === 'done'
            ? t('disk.upload.stage.done')
            : t('disk.upload.stage.error');
  return (
    <section className="disk-queue" data-testid="upload-queue" aria-label={t('disk.upload.queue')}>
      <Flex justifyContent="space-between" alignItems="center" marginBottom="xs">
        <Heading level={5}>{t('disk.upload.queue')}</Heading>
        {items.some((i) => i.stage === 'done') ? (
          <Button size="small" variation="link" onClick={onClearDone}>
            {t('disk.upload.clearDone')}
          </Button>
        ) : null}
      </Flex>
      <ul>
        {items.map((it) => {
          const p = percent(it);
          const err = it.stage === 'error' ? errorOf(it.key) : undefined;
          return (
            <li key={it.key} className={`disk-queue__item disk-queue__item--${it.stage}`} data-testid={`upload-item-${it.name}`} data-stage={it.stage}>
              <span className="disk-queue__name" title={it.name}>
                {it.name}
              </span>
              <Text as="span" fontSize="small" variation="secondary">
                {stageLabel(it.stage)} · {formatBytes(it.sent, i18n.language)} / {formatBytes(it.size, i18n.language)}
              </Text>
              <div className="disk-queue__bar" role="progressbar" aria-label={it.name} aria-valuemin={0} aria-valuemax={100} aria-valuenow={p}>
                <span style={{ width: `${p}%` }} />
              </div>
              {it.stage === 'error' ? (
                <>
                  <Text as="span" fontSize="small" color="font.error" role="alert">
                    {err ? message(err.reason) || title(err) : it.error}
                  </Text>
                  <Flex gap="xs">
                    <Button size="small" onClick={() => onRetry(it.key)}>
                      {t('disk.upload.retry')}
                    </Button>
                    <Button size="small" variation="link" onClick={() => onRemove(it.key)}>
                      {t('disk.upload.remove')}
                    </Button>
                  </Flex>
                </>
              ) : it.stage === 'queue' ? (
                <Button size="small" variation="link" onClick={() => onRemove(it.key)}>
                  {t('disk.upload.remove')}
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
