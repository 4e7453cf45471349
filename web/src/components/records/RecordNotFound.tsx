// The "this record does not exist (or is not yours)" state of show and form
// screens, so every screen says it the same way.

import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../EmptyState';
import { Page } from '../Page';

export function RecordNotFound() {
  const { t } = useTranslation();
  return <EmptyState icon="search" title={t('records.notFoundTitle')} message={t('records.notFoundMessage')} testId="record-not-found" />;
}

/** RecordNotFoundPage is the whole page of a form or show screen whose record is missing. */
export function RecordNotFoundPage({ title, breadcrumbs }: { title: string; breadcrumbs?: ReactNode }) {
  return (
    <Page title={title} breadcrumbs={breadcrumbs}>
      <RecordNotFound />
    </Page>
  );
}
