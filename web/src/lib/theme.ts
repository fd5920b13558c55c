import { createTheme } from '@mantine/core';
import { FONT_FAMILY, MONOSPACE_FAMILY } from './font-stack';

export const theme = createTheme({
  primaryColor: 'blue',
  fontFamily: FONT_FAMILY,
  fontFamilyMonospace: MONOSPACE_FAMILY,
  headings: { fontFamily: FONT_FAMILY },
  // Thai stacks vowels and tone marks above and below the line: leave them room.
  lineHeights: { xs: '1.5', sm: '1.6', md: '1.65', lg: '1.65', xl: '1.65' },
  defaultRadius: 'md',
  // A visible focus ring for keyboard users, and none for mouse clicks.
  focusRing: 'auto',
});
