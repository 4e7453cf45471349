import { Button, Flex, TextField } from '@aws-amplify/ui-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../components/ErrorAlert';
import { ApiError } from '../../../lib/errors';
import { createEntry, diskKeys } from '../api/drive';
import { nameProblem } from '../names';

/** NewFolder: the inline "new folder" form, its errors under the field. */
export function NewFolder({ db, dirId, onDone }: { db: string; dirId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = useErrorText();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const m = useMutation({
    mutationFn: (n: string) => createEntry(db, 'dir', n, dirId),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: diskKeys.all(db) });
      onDone();
    },
    onError: (e) => {
      if (e instanceof ApiError) {
        const f = e.fields.name?.map(message).join(', ');
        setProblem(f || message(e.reason) || message(e.error));
      } else setProblem(String(e));
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = nameProblem(name);
    if (p) {
      setProblem(t(`disk.name.${p}`));
      return;
    }
    m.mutate(name.trim());
  };
  return (
    <form onSubmit={submit} className="disk-newfolder" data-testid="disk-newfolder" noValidate>
      <Flex gap="small" alignItems="flex-start" wrap="wrap">
        <TextField
          label={t('disk.newFolder.label')}
          value={name}
          autoFocus
          onChange={(e) => {
            setName(e.target.value);
            setProblem(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onDone();
          }}
          hasError={!!problem}
          errorMessage={problem ?? undefined}
          flex="1 1 14rem"
        />
        <Flex gap="small" alignSelf="flex-end" marginBottom={problem ? 'large' : undefined}>
          <Button type="submit" variation="primary" isLoading={m.isPending}>
            {t('disk.newFolder.create')}
          </Button>
          <Button type="button" onClick={onDone}>
            {t('disk.cancel')}
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}
