// Print equipment labels (shared/servicedocs, labels.go): one per item with
// its identifier, its customer and the QR code of its open service order,
// on a 62 mm label printer's tape or an A4 sheet.

import { Flex, Text } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { AppIcon } from '../../../components/icons';
import { pdfUrls, type LabelSize } from '../api/servicedocs';

const SIZES: LabelSize[] = ['62mm', 'a4'];

export function LabelLinks({ db, ids, label }: { db: string; ids: readonly string[]; label?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <Flex gap="small" wrap="wrap" alignItems="center" role="group" aria-label={label ?? t('docs.labels.print')} data-testid="label-links">
      {label ? (
        <Text fontSize="small" variation="secondary">
          {label}
        </Text>
      ) : null}
      {SIZES.map((size) => (
        <a
          key={size}
          className="amplify-button amplify-button--small"
          href={pdfUrls.labels(db, ids, size, i18n.language)}
          target="_blank"
          rel="noopener noreferrer"
          data-testid={`print-labels-${size}`}
        >
          <AppIcon name="label" /> {t(`docs.labels.${size}`)}
        </a>
      ))}
    </Flex>
  );
}
