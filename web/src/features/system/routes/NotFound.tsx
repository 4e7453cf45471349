import { useTranslation } from 'react-i18next';
import { EmptyStateNext } from '../../../components/EmptyStateNext';
import { Page } from '../../../components/Page';
import { paths } from '../../../lib/paths';

export function Component() {
  const { t } = useTranslation();
  return (
    <Page title={t('errors.titles.not_found')} hideTitle>
      <EmptyStateNext icon="search" title={t('notFound.title')} message={t('notFound.message')} testId="not-found" next={{ to: paths.home(), label: t('pending.toHome') }} />
    </Page>
  );
}
