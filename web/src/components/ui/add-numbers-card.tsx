import { Button, Card, Group, Stack, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { typedNumbers } from '../../lib/typed-numbers';
import { ApiErrorAlert } from './api-error-alert';

/** The mutation that adds numbers: a group's members, or blocklist entries. */
export interface AddNumbers {
  mutate(numbers: string[], options: { onSuccess: () => void }): void;
  readonly error: unknown;
  readonly isPending: boolean;
}

/**
 * A card to add numbers typed or pasted (split as typedNumbers splits them) to a group or a
 * blocklist; the text is cleared once they are added.
 */
export function AddNumbersCard({
  add,
  title,
  label,
  hint,
  button,
}: {
  add: AddNumbers;
  title: string;
  label: string;
  hint: string;
  /** The button's text for this many numbers. */
  button: (count: number) => string;
}) {
  const [text, setText] = useState('');
  const numbers = typedNumbers(text);
  return (
    <Card withBorder>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate(numbers, { onSuccess: () => setText('') });
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4">
            {title}
          </Title>
          <ApiErrorAlert error={add.error} />
          <Textarea
            label={label}
            description={hint}
            autosize
            minRows={2}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button type="submit" disabled={numbers.length === 0} loading={add.isPending}>
              {button(numbers.length)}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
