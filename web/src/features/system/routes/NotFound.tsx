import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { Page } from '../../../components/Page';
import { ButtonLink } from '../../../components/RouterLink';
import { paths } from '../../../lib/paths';

export function Component() {
  const { t } = useTranslation();
  return (
    <Page title={t('errors.titles.not_found')} hideTitle>
      <EmptyState
        icon="search"
        title={t('notFound.title')}
        message={t('notFound.message')}
        testId="not-found"
        action={
          <ButtonLink to={paths.home()} variation="primary">
            {t('pending.toHome')}
          </ButtonLink>
        }
      />
    </Page>
  );
}
