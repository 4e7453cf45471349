// LoadError: a screen's data could not be loaded. It says so in a sentence
// in the user's language (never a raw key), and offers the way out that
// fits: another Group when this one refused or does not exist, else a retry.

import { Button } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../lib/errors';
import { paths } from '../lib/paths';
import { EmptyState } from './EmptyState';
import { useErrorText } from './ErrorAlert';
import type { IconName } from './icons';
import { ButtonLink } from './RouterLink';

export function LoadError({ error, onRetry, icon = 'info', testId }: { error: ApiError; onRetry?: () => void; icon?: IconName; testId?: string }) {
  const { t } = useTranslation();
  const { title, message } = useErrorText();
  const away = error.status === 403 || error.status === 404;
  return (
    <EmptyState
      icon={icon}
      title={title(error)}
      message={message(error.reason || error.error) || t('loadError.message')}
      testId={testId ?? 'load-error'}
      action={
        away ? (
          <ButtonLink to={paths.profile('groups')} variation="primary">
            {t('loadError.toGroups')}
          </ButtonLink>
        ) : onRetry ? (
          <Button onClick={onRetry}>{t('loadError.retry')}</Button>
        ) : undefined
      }
    />
  );
}
