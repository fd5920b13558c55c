import { Card, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One figure in a card: what it is, the figure in large type, and an optional note under it. */
export function StatCard({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  /** The figure's test id, for the browser tests that read it. */
  testId?: string;
}) {
  return (
    <Card withBorder>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={testId}>
        {value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Card>
  );
}
