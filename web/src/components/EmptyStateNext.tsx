// EmptyStateNext lives apart from EmptyState: the shell's error view draws
// EmptyState on the first route, and the router button would pull Amplify's
// Button, Link and Loader into the first route's budget with it.

import type { ComponentProps } from 'react';
import { EmptyState } from './EmptyState';
import { ButtonLink } from './RouterLink';

/** EmptyStateNext: an EmptyState whose action is the usual one, a primary link onwards. */
export function EmptyStateNext({ next, ...rest }: Omit<ComponentProps<typeof EmptyState>, 'action'> & { next: { to: string; label: string } }) {
  return (
    <EmptyState
      {...rest}
      action={
        <ButtonLink to={next.to} variation="primary">
          {next.label}
        </ButtonLink>
      }
    />
  );
}
