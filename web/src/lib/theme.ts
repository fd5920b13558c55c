import {
  createTheme,
  darken,
  FileInput,
  luminance,
  mergeThemeOverrides,
  ModalCloseButton,
  ModalHeader,
  SegmentedControl,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from '@mantine/core';
import { FONT_FAMILY, MONOSPACE_FAMILY } from './font-stack';
import classes from './theme.module.css';

/** WCAG 2.1 AA: the least contrast of normal-size text with its background (1.4.3). */
const AA_TEXT_CONTRAST = 4.5;

const theme = createTheme({
  primaryColor: 'blue',
  // Mantine's default shade, 6, puts links and white button text on blue at 3.56:1, under AA;
  // shade 8 gives 5:1 on white and 4.8:1 on the lightest grey (links take shade 9, below).
  primaryShade: { light: 8, dark: 8 },
  // Filled badges and buttons of any colour take black or white text, whichever reads.
  autoContrast: true,
  fontFamily: FONT_FAMILY,
  fontFamilyMonospace: MONOSPACE_FAMILY,
  headings: { fontFamily: FONT_FAMILY },
  // Thai stacks vowels and tone marks above and below the line: leave them room.
  lineHeights: { xs: '1.5', sm: '1.6', md: '1.65', lg: '1.65', xl: '1.65' },
  defaultRadius: 'md',
  // A visible focus ring for keyboard users, and none for mouse clicks.
  focusRing: 'auto',
  components: {
    SegmentedControl: SegmentedControl.extend({ classNames: { label: classes.segmentLabel } }),
  },
});

/**
 * The theme with the words its own controls need, in the console's language: every modal's
 * close button and every file field's clear button is named for a screen reader. A modal's
 * header is a plain block: as an HTML `header` inside the dialog it would be a second banner.
 */
export function themeIn(words: { readonly close: string; readonly clear: string }) {
  return mergeThemeOverrides(
    theme,
    createTheme({
      components: {
        ModalCloseButton: ModalCloseButton.extend({ defaultProps: { 'aria-label': words.close } }),
        ModalHeader: ModalHeader.extend({ defaultProps: { role: 'none' } }),
        FileInput: FileInput.extend({
          defaultProps: { clearButtonProps: { 'aria-label': words.clear } },
        }),
      },
    }),
  );
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `colour`, darkened just enough to read at AA on `background`. */
function readableOn(background: string, colour: string): string {
  let shade = colour;
  for (let amount = 0.05; contrast(shade, background) < AA_TEXT_CONTRAST; amount += 0.05) {
    shade = darken(colour, amount);
  }
  return shade;
}

/**
 * The light scheme's text colours, raised to AA where Mantine's fall short: links take blue 9;
 * dimmed text (grey 6, 3.3:1 on white) and placeholders (grey 5, 2.1:1) are darkened just enough
 * to read on what they stand on (light grey 1 under dimmed text, white in a field); error text
 * takes red 9; and the text of every light badge, alert and button (shade 9 on shade 1: yellow
 * 2.7:1, orange 3.6:1, green 3.8:1) is darkened until it reads.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const { gray } = resolved.colors;
  return {
    variables: {},
    light: {
      '--mantine-color-dimmed': readableOn(gray[1], gray[6]),
      '--mantine-color-placeholder': readableOn(resolved.white, gray[5]),
      '--mantine-color-error': 'var(--mantine-color-red-9)',
      // Links also stand on the light colours of alerts: blue 8 reads on white, blue 9 on both.
      '--mantine-color-anchor': 'var(--mantine-color-blue-9)',
      ...Object.fromEntries(
        Object.entries(resolved.colors as Record<string, MantineColorsTuple>).map(
          ([name, shades]) => [
            `--mantine-color-${name}-light-color`,
            readableOn(shades[1], shades[9]),
          ],
        ),
      ),
    },
    dark: {},
  };
};
