/**
 * The console's font stack. Latin text takes the system's UI font; a Thai character that font
 * lacks falls through, character by character, to the first Thai-capable family present:
 * Noto Sans Thai (many Linux desktops and Android), Leelawadee UI and Tahoma (Windows),
 * Thonburi (Apple), then Debian's fonts-thai-tlwg (Loma, Garuda, Waree), which the CI machine
 * and the browser tests use. Kept free of imports so tests can read it.
 */
export const FONT_STACK = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  '"Noto Sans Thai"',
  '"Noto Sans Thai UI"',
  '"Leelawadee UI"',
  'Thonburi',
  'Tahoma',
  'Loma',
  'Garuda',
  'Waree',
  'sans-serif',
] as const;

export const FONT_FAMILY = FONT_STACK.join(', ');

export const MONOSPACE_FAMILY =
  'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", "Tlwg Mono", monospace';
