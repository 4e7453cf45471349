// DeclaredForm: a module's new/edit screen described by a declaration — the
// klass, its fields in order (the kit's field components, or a screen's own
// control where it has something special), one or two columns. The kit does
// the rest: not-found and loading states, the klass's rules read from the
// server's schema (GET /api/_schema) and checked before sending in the
// server's words, the server's field errors under the fields (the rest in
// the alert), Cancel and Save (Ctrl/⌘+Enter).

import { Card, Flex, Grid, Placeholder } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { checkRecord, fieldRules, schemaQuery, type FieldRules, type ServedSchema } from '../../lib/schema';
import { ErrorAlert, useFieldError } from '../ErrorAlert';
import { Page } from '../Page';
import { CheckedForm, FormActions } from './CheckedForm';
import { RecordField, type FieldDef, type FormValues } from './fields';
import { RecordNotFoundPage } from './RecordNotFound';
import type { RecordEditor } from './useRecordEditor';

/** What a screen's own control gets: the value, a setter, the field's error and rules. */
export interface FieldControl {
  name: string;
  value: unknown;
  values: FormValues;
  set: (patch: FormValues) => void;
  /** The field's translated error, or undefined. */
  error: string | undefined;
  /** Any error of the field's keys ("items[2].content" for a list). */
  errorOf: (key: string) => string | undefined;
  rules: FieldRules | undefined;
  disabled: boolean;
}

export type DeclaredField = (FieldDef | (Omit<FieldDef, 'type'> & { type: 'custom' })) & {
  /** A screen's own control in place of the kit's. */
  render?: (c: FieldControl) => ReactNode;
  /** Takes both columns of a two-column form. */
  wide?: boolean;
};

export interface FormDeclaration {
  /** The klass saved: its served rules check the fields. */
  klass: string;
  fields: DeclaredField[];
  /** Two columns from medium screens up. */
  columns?: 1 | 2;
  /** The Save button's test id. */
  saveTestId?: string;
}

/** The values as the editor sends them: empty strings and nulls are not sent. */
function asSent(values: FormValues): FormValues {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== ''));
}

/** checkDeclared: the served rules' refusals for the declared fields (none while the rules are not loaded: the server checks anyway). */
export function checkDeclared(schema: ServedSchema | undefined, form: FormDeclaration, values: FormValues) {
  if (!schema) return {};
  return checkRecord(schema, form.klass, asSent(values), form.fields.map((f) => f.name));
}

export function DeclaredForm({
  form,
  ed,
  title,
  breadcrumbs,
  children,
}: {
  form: FormDeclaration;
  ed: RecordEditor;
  title: string;
  breadcrumbs?: ReactNode;
  /** What goes after the fields (a preview of what the server will compute). */
  children?: ReactNode;
}) {
  const schema = useQuery(schemaQuery).data;
  const fieldError = useFieldError(ed.error);
  if (ed.notFound) return <RecordNotFoundPage title={title} breadcrumbs={breadcrumbs} />;
  const v = ed.values;
  const names = form.fields.map((f) => f.name);
  const shownElsewhere = !!ed.error && Object.keys(ed.error.fields).some((k) => !names.includes(k.replace(/\[.*$/, '')));
  const control = (f: DeclaredField, values: FormValues): ReactNode => {
    const rules = fieldRules(schema, form.klass, f.name);
    if (f.render) {
      return f.render({
        name: f.name,
        value: values[f.name],
        values,
        set: ed.set,
        error: fieldError(f.name),
        errorOf: fieldError,
        rules,
        disabled: ed.saving,
      });
    }
    const def = { ...f, required: f.required ?? rules?.required } as FieldDef;
    return <RecordField db={ed.db} def={def} value={values[f.name]} onChange={(name, value) => ed.set({ [name]: value })} error={fieldError(f.name)} disabled={ed.saving} />;
  };
  const fields = (values: FormValues) =>
    form.columns === 2 ? (
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', medium: 'minmax(0, 1fr) minmax(0, 1fr)' }} gap="medium">
        {form.fields.map((f) => (
          <Flex key={f.name} direction="column" columnStart={f.wide ? '1' : undefined} columnEnd={f.wide ? '-1' : undefined}>
            {control(f, values)}
          </Flex>
        ))}
      </Grid>
    ) : (
      form.fields.map((f) => <Flex key={f.name} direction="column">{control(f, values)}</Flex>)
    );
  return (
    <Page title={title} width="medium" breadcrumbs={breadcrumbs}>
      <Card variation="outlined">
        {v === null ? (
          <Placeholder size="large" />
        ) : (
          <CheckedForm label={title} saving={ed.saving} check={() => checkDeclared(schema, form, v)} onInvalid={ed.setError} onValid={ed.save}>
            <Flex direction="column" gap="medium">
              <ErrorAlert error={ed.error} onDismiss={() => ed.setError(null)} showFields={shownElsewhere} />
              {fields(v)}
              {children}
              <FormActions saving={ed.saving} onCancel={ed.cancel} saveTestId={form.saveTestId} />
            </Flex>
          </CheckedForm>
        )}
      </Card>
    </Page>
  );
}
