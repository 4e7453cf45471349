// reader_items#index: the feed list on its own page.

import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { AppIcon } from '../../../components/icons';
import { Page } from '../../../components/Page';
import { ButtonLink } from '../../../components/RouterLink';
import { paths } from '../../../lib/paths';
import { FeedList } from '../components/FeedList';
import { ReaderCrumbs } from '../components/ReaderCrumbs';

export function Component() {
  const { t } = useTranslation();
  const { account_id: db = '' } = useParams();
  return (
    <Page
      title={t('nav.reader_items')}
      breadcrumbs={<ReaderCrumbs db={db} set="reader_items" />}
      actions={
        <>
          <ButtonLink to={paths.index(db, 'reader_subscriptions')} size="small">
            <AppIcon name="subscription" /> {t('nav.reader_subscriptions')}
          </ButtonLink>
          <ButtonLink to={paths.index(db, 'reader_labels')} size="small">
            <AppIcon name="label" /> {t('nav.reader_labels')}
          </ButtonLink>
        </>
      }
    >
      <FeedList db={db} />
    </Page>
  );
}
