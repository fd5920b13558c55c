import {
  Badge,
  Button,
  Card,
  Grid,
  Group,
  NavLink,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TEMPLATE_BODY_MAX, templateBodySchema, type TemplateView } from '@contract/templates';
import { ApiErrorAlert } from '../../components/ui/api-error-alert';
import { tooLong } from '../../lib/too-long';
import { usePageTitle } from '../../lib/use-page-title';
import { useDeleteTemplate, useSaveTemplate, useTemplatePreview, useTemplates } from './api';

/** The account's templates: pick one to edit or start a new one; a live preview beside it. */
export function TemplatesPage() {
  const { t } = useTranslation();
  usePageTitle(t('areas.templates.title'));
  const templates = useTemplates();
  const [selected, setSelected] = useState<TemplateView | null>(null);
  const [editorKey, setEditorKey] = useState(0);
  const open = (template: TemplateView | null) => {
    setSelected(template);
    setEditorKey((key) => key + 1);
  };
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>{t('areas.templates.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t('areas.templates.summary')}
        </Text>
      </div>
      <ApiErrorAlert error={templates.error} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap={4}>
            <Button variant="light" onClick={() => open(null)}>
              {t('templates.new')}
            </Button>
            {templates.data?.data.length === 0 ? (
              <Text c="dimmed" size="sm">
                {t('templates.none')}
              </Text>
            ) : null}
            {templates.data?.data.map((template) => (
              <NavLink
                component="button"
                key={template.id}
                label={template.name}
                description={template.variables.map((v) => `{{${v}}}`).join(' ')}
                active={selected?.id === template.id}
                onClick={() => open(template)}
              />
            ))}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <TemplateEditor
            key={editorKey}
            template={selected}
            onSaved={(template) => setSelected(template)}
            onDeleted={() => open(null)}
          />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function TemplateEditor({
  template,
  onSaved,
  onDeleted,
}: {
  template: TemplateView | null;
  onSaved: (template: TemplateView) => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(template?.name ?? '');
  const [body, setBody] = useState(template?.body ?? '');
  const [values, setValues] = useState<Record<string, string>>({});
  const [debouncedBody] = useDebouncedValue(body, 250);
  const [debouncedValues] = useDebouncedValue(values, 250);
  // A body longer than the server takes is said at the field, and neither previewed nor saved.
  const bodyTooLong = tooLong(templateBodySchema.shape.body, body);
  const preview = useTemplatePreview(
    tooLong(templateBodySchema.shape.body, debouncedBody) ? '' : debouncedBody,
    debouncedValues,
  );
  const save = useSaveTemplate();
  const remove = useDeleteTemplate();
  const variables = preview.data?.variables ?? template?.variables ?? [];
  return (
    <Card withBorder>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (bodyTooLong) return;
          save.mutate({ id: template?.id ?? null, body: { name, body } }, { onSuccess: onSaved });
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4">
            {template ? t('templates.edit', { name: template.name }) : t('templates.new')}
          </Title>
          <ApiErrorAlert error={save.error ?? remove.error} />
          <TextInput
            label={t('templates.name')}
            required
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <Textarea
            label={t('templates.body')}
            description={t('templates.bodyHint', { example: '{{name}}' })}
            required
            autosize
            minRows={4}
            value={body}
            error={bodyTooLong ? t('errors.tooLong', { count: TEMPLATE_BODY_MAX }) : undefined}
            onChange={(event) => setBody(event.currentTarget.value)}
          />
          <div>
            <Text size="sm" fw={500}>
              {t('templates.placeholders')}
            </Text>
            {variables.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('templates.noPlaceholders')}
              </Text>
            ) : (
              <Group gap={4} mt={4} data-testid="template-placeholders">
                {variables.map((variable) => (
                  <Badge key={variable} variant="light" tt="none">
                    {`{{${variable}}}`}
                  </Badge>
                ))}
              </Group>
            )}
          </div>
          {variables.map((variable) => (
            <TextInput
              key={variable}
              label={t('templates.valueOf', { name: variable })}
              value={values[variable] ?? ''}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setValues((current) => ({ ...current, [variable]: value }));
              }}
            />
          ))}
          <Paper withBorder p="sm" bg="var(--mantine-color-gray-0)">
            <Text size="sm" fw={500}>
              {t('templates.preview')}
            </Text>
            <Text style={{ whiteSpace: 'pre-wrap' }} data-testid="template-preview">
              {body.length > 0 ? (preview.data?.text ?? '') : t('templates.previewEmpty')}
            </Text>
            {preview.data && body.length > 0 ? (
              <Text size="xs" c="dimmed" mt={4} data-testid="template-counts">
                {t('templates.counts', {
                  characters: t('units.characters', { count: preview.data.characters }),
                  parts: t('units.parts', { count: preview.data.parts }),
                })}
              </Text>
            ) : null}
          </Paper>
          <Group justify="space-between">
            {template ? (
              <Button
                color="red"
                variant="light"
                loading={remove.isPending}
                onClick={() => remove.mutate(template.id, { onSuccess: onDeleted })}
              >
                {t('templates.delete')}
              </Button>
            ) : (
              <span />
            )}
            <Button type="submit" loading={save.isPending}>
              {t('templates.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
