// An accessible modal dialog: focus moves in on open and back on close,
// Tab stays inside, Escape and the backdrop close it (unless locked).

import { Button, Flex, Heading, View } from '@aws-amplify/ui-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { AppIcon } from './icons';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Modal({
  open,
  title,
  onClose,
  children,
  footer,
  closeLabel = 'Close',
  dismissible = true,
  testId,
  sheet = false,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  closeLabel?: string;
  /** false for modals the user must complete (the re-login modal). */
  dismissible?: boolean;
  testId?: string;
  /** A sheet rises from the bottom of the screen, full width (a phone's filters). */
  sheet?: boolean;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const node = panel.current;
    const first = node?.querySelector<HTMLElement>('[data-autofocus], input, textarea, select') ?? node?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? node)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && dismissible) {
        e.stopPropagation();
        onClose();
      } else if (e.key === 'Tab' && node) {
        const items = Array.from(node.querySelectorAll<HTMLElement>(FOCUSABLE));
        if (items.length === 0) return;
        const firstItem = items[0]!;
        const lastItem = items[items.length - 1]!;
        if (e.shiftKey && document.activeElement === firstItem) {
          e.preventDefault();
          lastItem.focus();
        } else if (!e.shiftKey && document.activeElement === lastItem) {
          e.preventDefault();
          firstItem.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey, true);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.body.style.overflow = overflow;
      previous?.focus?.();
    };
  }, [open, dismissible, onClose]);

  if (!open) return null;
  return createPortal(
    <div
      className={`modal-backdrop${sheet ? ' modal-backdrop--sheet' : ''}`}
      onMouseDown={(e) => {
        if (dismissible && e.target === e.currentTarget) onClose();
      }}
    >
      <View
        ref={panel}
        className={`modal-panel${sheet ? ' modal-panel--sheet' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={testId}
      >
        <Flex justifyContent="space-between" alignItems="center" marginBottom="medium">
          <Heading level={3} id={titleId}>
            {title}
          </Heading>
          {dismissible ? (
            <Button variation="link" size="small" onClick={onClose} aria-label={closeLabel}>
              <AppIcon name="close" />
            </Button>
          ) : null}
        </Flex>
        {children}
        {footer ? (
          <Flex justifyContent="flex-end" gap="small" marginTop="large">
            {footer}
          </Flex>
        ) : null}
      </View>
    </div>,
    document.body,
  );
}
