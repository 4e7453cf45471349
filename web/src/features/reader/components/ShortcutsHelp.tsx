// The "?" overlay listing the keyboard shortcuts.

import { Button } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/Modal';
import { SHORTCUTS } from './shortcuts';

export function ShortcutsHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t('reader.shortcuts.title')}
      onClose={onClose}
      closeLabel={t('common.close')}
      testId="shortcuts-help"
      footer={
        <Button onClick={onClose} variation="primary">
          {t('common.close')}
        </Button>
      }
    >
      <dl className="detail-list">
        {SHORTCUTS.map((s) => (
          <div key={s.key} className="detail-list__row">
            <dt>
              <kbd className="shortcut-key">{s.key}</kbd>
            </dt>
            <dd>{t(`reader.shortcuts.${s.action}`)}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
