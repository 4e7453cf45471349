// Amplify's Link and Button rendered as react-router links, so navigation
// stays client-side and styling stays the theme's.

import { Button, Link, type ButtonProps } from '@aws-amplify/ui-react';
import type { ComponentType, ReactNode } from 'react';
import { Link as RRLink } from 'react-router';

export function AppLink({
  to,
  children,
  ...rest
}: {
  to: string;
  children?: ReactNode;
  className?: string;
  'aria-label'?: string;
  'aria-current'?: 'page' | undefined;
  onClick?: () => void;
}) {
  return (
    <Link as={RRLink} to={to} {...rest}>
      {children}
    </Link>
  );
}

// Amplify's Button typings tie its ref to <button>; rendered as a router
// link it is an <a>, which is what a navigation should be.
const AnyButton = Button as unknown as ComponentType<Record<string, unknown>>;

export function ButtonLink({ to, children, ...rest }: { to: string; children: ReactNode } & Omit<ButtonProps, 'as'>) {
  return (
    <AnyButton as={RRLink} to={to} {...rest}>
      {children}
    </AnyButton>
  );
}
