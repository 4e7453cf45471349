import { Accordion, Heading } from '@aws-amplify/ui-react';
import { useTranslation } from 'react-i18next';

const QUESTIONS = ['what', 'groups', 'billing', 'free', 'storage', 'data', 'languages', 'cancel'];

export function Faq() {
  const { t } = useTranslation();
  return (
    <section id="faq" aria-labelledby="faq-title" className="landing-section">
      <Heading level={3} id="faq-title" marginBottom="large">
        {t('home.faq.title')}
      </Heading>
      <Accordion
        allowMultiple
        items={QUESTIONS.map((q) => ({
          value: q,
          trigger: t(`home.faq.${q}.q`),
          content: t(`home.faq.${q}.a`),
        }))}
      />
    </section>
  );
}
