// Page: the heading, document title and width every screen shares.

import { Flex, Heading, View } from '@aws-amplify/ui-react';
import { useEffect, type ReactNode } from 'react';

export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} · Oficina` : 'Oficina';
  }, [title]);
}

export function Page({
  title,
  actions,
  children,
  width = 'wide',
  breadcrumbs,
  hideTitle = false,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  width?: 'narrow' | 'medium' | 'wide';
  breadcrumbs?: ReactNode;
  hideTitle?: boolean;
}) {
  usePageTitle(title);
  return (
    <View as="section" className={`page page--${width}`} aria-label={title}>
      {breadcrumbs}
      {hideTitle ? null : (
        <Flex justifyContent="space-between" alignItems="center" wrap="wrap" gap="small" marginBottom="medium">
          <Heading level={2}>{title}</Heading>
          {actions ? (
            <Flex gap="small" wrap="wrap">
              {actions}
            </Flex>
          ) : null}
        </Flex>
      )}
      {children}
    </View>
  );
}
