import { SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RecipientTally as Tally } from '@contract/compose';
import { useFormatNumber } from '../../lib/use-format-number';

/** In the order they follow from each other. */
const FIGURES = ['requested', 'duplicates', 'unique', 'invalid', 'blocked', 'charged'] as const;

/**
 * What became of the numbers of a send, as the API's `recipients` tally gives them: the numbers
 * requested less the duplicates are the unique ones; those less the invalid and the blocklisted
 * are charged, the recipients sent to and paid for. The dry run's confirmation and the message
 * page show these same figures under the same names, so "1,003 unique, 3 invalid, 1,000 sent
 * and charged" reads the same in both.
 */
export function RecipientTally({ tally }: { tally: Tally }) {
  const { t } = useTranslation();
  const number = useFormatNumber();
  return (
    <SimpleGrid
      component="dl"
      cols={{ base: 2, xs: 3 }}
      spacing="md"
      verticalSpacing="xs"
      m={0}
      aria-label={t('recipientTally.label')}
    >
      {FIGURES.map((figure) => (
        <div key={figure}>
          <Text component="dt" size="sm" c="dimmed">
            {t(`recipientTally.${figure}`)}
          </Text>
          <Text component="dd" m={0} fw={700} size="lg" data-testid={`tally-${figure}`}>
            {number(tally[figure])}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}
