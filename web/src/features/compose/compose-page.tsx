import {
  Button,
  Card,
  Group,
  Radio,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  countCharacters,
  countParts,
  MAX_PASTED_NUMBERS,
  MAX_SEND_CONTENT_CHARS,
  MULTI_PART_UNITS,
  previewTemplate,
  renderTemplate,
  SINGLE_PART_UNITS,
  type Estimate,
  type PreviewBody,
  type RecipientList,
  type SendBody,
} from '@contract/compose';
import type { TemplateView as TemplateSummary } from '@contract/templates';
import { useSession } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { typedNumbers } from '../../lib/typed-numbers';
import { wallTimeIn } from '../../lib/zoned-day';
import { DEFAULT_TIME_ZONE } from '../../lib/format-date';
import { useSenders } from '../sender-names';
import { useContactGroups, usePreview, useSend, useTemplates } from './api';
import { ComposeError } from './components/compose-error';
import { ConfirmSendModal } from './components/confirm-send-modal';
import { FileRecipients } from './components/file-recipients';

type ContentMode = 'text' | 'template';
type RecipientMode = 'typed' | 'group' | 'file';

/** Compose a message, see its parts and cost as it is typed, check it by a dry run, send it. */
export function ComposePage() {
  const { t } = useTranslation();
  usePageTitle(t('areas.send.title'));
  const navigate = useNavigate();
  const timeZone = useSession().data?.user?.timeZone ?? DEFAULT_TIME_ZONE;

  const senders = useSenders();
  const templates = useTemplates();
  const groups = useContactGroups();
  const approved = (senders.data?.data ?? []).filter((s) => s.status === 'approved');

  const [sender, setSender] = useState<string | null>(null);
  const [contentMode, setContentMode] = useState<ContentMode>('text');
  const [content, setContent] = useState('');
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [variables, setVariables] = useState<Record<string, string>>({});
  const [recipientMode, setRecipientMode] = useState<RecipientMode>('typed');
  const [typed, setTyped] = useState('');
  const [groupId, setGroupId] = useState<string | null>(null);
  const [list, setList] = useState<RecipientList | null>(null);
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [later, setLater] = useState('');
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  const send = useSend();
  const dryRun = useSend();

  const template: TemplateSummary | undefined = templates.data?.data.find(
    (candidate) => String(candidate.id) === templateId,
  );
  // Every placeholder is sent with what was typed into its field, an empty one as nothing
  // (as the server fills it): the text below is the one sent and charged.
  const filled = useMemo(
    () => (template ? pick(variables, template.variables) : {}),
    [template, variables],
  );
  const text =
    contentMode === 'text' ? content : template ? renderTemplate(template.body, filled) : '';
  const leftEmpty = template ? previewTemplate(template.body, filled).missing : [];
  const characters = countCharacters(text);
  const parts = text.length === 0 ? 0 : countParts(text);
  // Longer than a send takes: said as it is typed, and neither priced nor sent.
  const contentTooLong = characters > MAX_SEND_CONTENT_CHARS;
  const tooLongText = t('compose.contentTooLong', { count: MAX_SEND_CONTENT_CHARS });
  const numbers = useMemo(() => typedNumbers(typed), [typed]);

  // The body priced is kept as one object while its parts stay the same, so that the preview's
  // debounce settles instead of restarting at every render.
  const contentFields = useMemo((): Pick<
    SendBody,
    'content' | 'templateId' | 'variables'
  > | null => {
    if (contentTooLong) return null;
    if (contentMode === 'text') return content.trim() ? { content } : null;
    return template ? { templateId: template.id, variables: filled } : null;
  }, [contentTooLong, contentMode, content, template, filled]);
  const recipientFields = useMemo((): Pick<
    SendBody,
    'msisdns' | 'contactGroupId' | 'recipientListId'
  > | null => {
    if (recipientMode === 'typed') {
      return numbers.length > 0 && numbers.length <= MAX_PASTED_NUMBERS
        ? { msisdns: numbers }
        : null;
    }
    if (recipientMode === 'group') return groupId ? { contactGroupId: Number(groupId) } : null;
    return list ? { recipientListId: list.id } : null;
  }, [recipientMode, numbers, groupId, list]);
  const previewBody = useMemo(
    (): PreviewBody | null =>
      contentFields && recipientFields ? { ...contentFields, ...recipientFields } : null,
    [contentFields, recipientFields],
  );
  const preview = usePreview(previewBody);
  const scheduledTime = when === 'later' ? wallTimeIn(later, timeZone) : null;
  const ready =
    sender !== null && previewBody !== null && (when === 'now' || scheduledTime !== null);

  function body(dry: boolean): SendBody {
    return {
      sender: sender!,
      ...contentFields,
      ...recipientFields,
      ...(scheduledTime && when === 'later' ? { scheduledTime } : {}),
      ...(dry ? { dryRun: true } : {}),
    };
  }

  async function check() {
    send.reset();
    const answer = await dryRun.mutateAsync(body(true)).catch(() => null);
    if (answer?.dryRun) setEstimate(answer);
  }

  async function confirm() {
    const answer = await send.mutateAsync(body(false)).catch(() => null);
    if (answer && !answer.dryRun) void navigate(`/messages/${answer.uuid}`);
  }

  return (
    <Stack gap="lg" maw={880}>
      <div>
        <Title order={1}>{t('areas.send.title')}</Title>
        <Text c="dimmed" mt="xs">
          {t('areas.send.summary')}
        </Text>
      </div>

      <Card withBorder padding="lg">
        <Stack gap="md">
          <Title order={2} size="h4">
            {t('compose.from')}
          </Title>
          <Select
            label={t('compose.sender')}
            placeholder={t('compose.senderPlaceholder')}
            data={approved.map((s) => ({
              value: s.name,
              label: s.shared ? `${s.name} (${t('compose.shared')})` : s.name,
            }))}
            value={sender}
            onChange={setSender}
            nothingFoundMessage={t('compose.noSenders')}
            description={approved.length === 0 && senders.data ? t('compose.noSenders') : undefined}
          />
        </Stack>
      </Card>

      <Card withBorder padding="lg">
        <Stack gap="md">
          <Title order={2} size="h4">
            {t('compose.message')}
          </Title>
          <SegmentedControl
            value={contentMode}
            onChange={(value) => setContentMode(value as ContentMode)}
            data={[
              { value: 'text', label: t('compose.modes.text') },
              { value: 'template', label: t('compose.modes.template') },
            ]}
          />
          {contentMode === 'text' ? (
            <Textarea
              label={t('compose.content')}
              autosize
              minRows={4}
              value={content}
              error={contentTooLong ? tooLongText : undefined}
              onChange={(event) => setContent(event.currentTarget.value)}
            />
          ) : (
            <Stack gap="sm">
              <Select
                label={t('compose.template')}
                placeholder={t('compose.templatePlaceholder')}
                data={(templates.data?.data ?? []).map((tpl) => ({
                  value: String(tpl.id),
                  label: tpl.name,
                }))}
                value={templateId}
                onChange={(value) => {
                  setTemplateId(value);
                  setVariables({});
                }}
                nothingFoundMessage={t('compose.noTemplates')}
              />
              {template?.variables.map((name) => (
                <TextInput
                  key={name}
                  label={`{{${name}}}`}
                  value={variables[name] ?? ''}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setVariables((current) => ({ ...current, [name]: value }));
                  }}
                />
              ))}
              {template ? (
                <Card bg="var(--mantine-color-default-hover)" padding="sm">
                  <Text size="sm" c="dimmed">
                    {t('compose.preview')}
                  </Text>
                  <Text
                    style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                    data-testid="template-preview"
                  >
                    {text}
                  </Text>
                  {leftEmpty.length > 0 ? (
                    <Text size="sm" c="dimmed" mt="xs" data-testid="left-empty">
                      {t('compose.leftEmpty', {
                        names: leftEmpty.map((name) => `{{${name}}}`).join(', '),
                      })}
                    </Text>
                  ) : null}
                  {contentTooLong ? (
                    <Text size="sm" c="red" mt="xs" role="alert">
                      {tooLongText}
                    </Text>
                  ) : null}
                </Card>
              ) : null}
            </Stack>
          )}
          <Text size="sm" aria-live="polite" data-testid="part-counter">
            {t('compose.counter', {
              characters: t('units.characters', { count: characters }),
              parts: t('units.parts', { count: parts }),
              single: SINGLE_PART_UNITS,
              multi: MULTI_PART_UNITS,
            })}
          </Text>
        </Stack>
      </Card>

      <Card withBorder padding="lg">
        <Stack gap="md">
          <Title order={2} size="h4">
            {t('compose.recipients')}
          </Title>
          <SegmentedControl
            value={recipientMode}
            onChange={(value) => setRecipientMode(value as RecipientMode)}
            data={[
              { value: 'typed', label: t('compose.recipientModes.typed') },
              { value: 'group', label: t('compose.recipientModes.group') },
              { value: 'file', label: t('compose.recipientModes.file') },
            ]}
          />
          {recipientMode === 'typed' ? (
            <Textarea
              label={t('compose.typedNumbers')}
              description={t('compose.typedHint', { max: MAX_PASTED_NUMBERS })}
              autosize
              minRows={3}
              maxRows={10}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              error={
                numbers.length > MAX_PASTED_NUMBERS
                  ? t('compose.tooManyTyped', { count: MAX_PASTED_NUMBERS })
                  : undefined
              }
            />
          ) : recipientMode === 'group' ? (
            <Select
              label={t('compose.group')}
              placeholder={t('compose.groupPlaceholder')}
              data={(groups.data?.data ?? []).map((g) => ({
                value: String(g.id),
                label: t('compose.groupOption', { name: g.name, count: g.size }),
              }))}
              value={groupId}
              onChange={setGroupId}
              nothingFoundMessage={t('compose.noGroups')}
            />
          ) : (
            <FileRecipients list={list} onList={setList} />
          )}
        </Stack>
      </Card>

      <Card withBorder padding="lg">
        <Stack gap="md">
          <Title order={2} size="h4">
            {t('compose.when')}
          </Title>
          <Radio.Group value={when} onChange={(value) => setWhen(value as 'now' | 'later')}>
            <Group gap="lg">
              <Radio value="now" label={t('compose.now')} />
              <Radio value="later" label={t('compose.later')} />
            </Group>
          </Radio.Group>
          {when === 'later' ? (
            <TextInput
              type="datetime-local"
              label={t('compose.laterAt')}
              description={t('compose.inZone', { zone: timeZone })}
              value={later}
              onChange={(event) => setLater(event.currentTarget.value)}
              maw={320}
            />
          ) : null}
        </Stack>
      </Card>

      <Card withBorder padding="lg" aria-live="polite">
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('compose.cost')}
          </Title>
          {preview.data && previewBody ? (
            <Text data-testid="live-cost">
              {t('compose.liveCost', {
                parts: t('units.parts', { count: preview.data.parts }),
                recipients: t('units.recipients', { count: preview.data.recipients.charged }),
                cost: t('units.credits', { count: preview.data.cost }),
                balance: preview.data.balance,
              })}
            </Text>
          ) : (
            <Text c="dimmed">{t('compose.costWaiting')}</Text>
          )}
          {previewBody ? <ComposeError error={preview.error} /> : null}
          <ComposeError error={dryRun.error} />
          <Group>
            <Button onClick={() => void check()} disabled={!ready} loading={dryRun.isPending}>
              {t('compose.check')}
            </Button>
          </Group>
        </Stack>
      </Card>

      <ConfirmSendModal
        estimate={estimate}
        scheduledAt={
          when === 'later' && scheduledTime ? `${later.replace('T', ' ')} (${timeZone})` : null
        }
        sending={send.isPending}
        error={send.error}
        onBack={() => setEstimate(null)}
        onConfirm={() => void confirm()}
      />
    </Stack>
  );
}

function pick(values: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, values[name] ?? '']));
}
