// equipment#new and #edit: identifier, maker, description, location and the
// customer (picked by name; ?customer=… pre-fills it from the customer).

import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DeclaredForm, type FormDeclaration } from '../../../components/records/DeclaredForm';
import { DeskCrumbs } from '../components/DeskCrumbs';
import { useRecordEditor } from '../components/useRecordEditor';

export const EQUIPMENT_FORM: FormDeclaration = {
  klass: 'Equipment',
  fields: [
    { name: 'identifier', type: 'text' },
    { name: 'maker', type: 'text' },
    { name: 'customer_id', type: 'ref', ref: 'Customer' },
    { name: 'location', type: 'text' },
    { name: 'description', type: 'textarea', rows: 4 },
  ],
};

export function Component() {
  const { t } = useTranslation();
  const [sp] = useSearchParams();
  const ed = useRecordEditor('equipment', 'Equipment', { customer_id: sp.get('customer') || null });
  const title = ed.editing ? t('tickets.editEquipment') : t('tickets.newEquipment');
  return <DeclaredForm form={EQUIPMENT_FORM} ed={ed} title={title} breadcrumbs={<DeskCrumbs db={ed.db} set="equipment" current={title} />} />;
}
