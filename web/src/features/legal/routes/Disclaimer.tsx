import { LegalDocument } from '../components/LegalDocument';

export function Component() {
  return <LegalDocument doc="disclaimer" />;
}
