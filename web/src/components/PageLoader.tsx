import { Flex, Loader, VisuallyHidden } from '@aws-amplify/ui-react';

/** PageLoader is the Suspense fallback of lazy routes and slow loads. */
export function PageLoader({ label = 'Loading…' }: { label?: string }) {
  return (
    <Flex justifyContent="center" alignItems="center" padding="xxl" role="status" aria-live="polite">
      <Loader size="large" />
      <VisuallyHidden>{label}</VisuallyHidden>
    </Flex>
  );
}
