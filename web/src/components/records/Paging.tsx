// Pagination for index screens: numbered (page N, more known to exist) and
// bookmark-based (CouchDB _find bookmarks: next, and back through the stack).

import { Button, Flex, Pagination, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../icons';

export function NumberedPaging({
  page,
  hasMore,
  totalPages,
  onPage,
}: {
  page: number;
  hasMore: boolean;
  /** Known total, when the API can count; otherwise pages reach as far as seen. */
  totalPages?: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const total = totalPages ?? page;
  if (page === 1 && !hasMore && total <= 1) return null;
  return (
    <Flex justifyContent="center" marginTop="medium">
      <Pagination
        currentPage={page}
        totalPages={Math.max(total, page)}
        hasMorePages={hasMore}
        siblingCount={1}
        onNext={() => onPage(page + 1)}
        onPrevious={() => onPage(Math.max(1, page - 1))}
        onChange={(p) => p && onPage(p)}
        previousLabel={t('records.previous')}
        nextLabel={t('records.next')}
        currentPageLabel={t('records.currentPage')}
        pageLabel={t('records.page')}
      />
    </Flex>
  );
}

export function BookmarkPaging({
  page,
  hasMore,
  onPrevious,
  onNext,
}: {
  page: number;
  hasMore: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  if (page === 1 && !hasMore) return null;
  return (
    <Flex justifyContent="center" alignItems="center" gap="medium" marginTop="medium" as="nav" aria-label={t('records.pagination')}>
      <Button size="small" onClick={onPrevious} isDisabled={page <= 1}>
        <AppIcon name="chevronLeft" /> {t('records.previous')}
      </Button>
      <Text>{t('records.pageN', { page })}</Text>
      <Button size="small" onClick={onNext} isDisabled={!hasMore}>
        {t('records.next')} <AppIcon name="chevronRight" />
      </Button>
    </Flex>
  );
}
