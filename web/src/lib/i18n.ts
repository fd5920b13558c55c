import i18next, { type FormatterModule, type InitOptions } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import th from '../locales/th.json';
import { formatNumber } from './format-number';
import { isLanguage, languageOf, type Language } from './format-date';

/** Every string the console shows comes from these files; `t()` accepts only their keys. */
export const resources = { en: { translation: en }, th: { translation: th } } as const;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}

export const LANGUAGES: readonly Language[] = ['th', 'en'];
const STORAGE_KEY = 'nok.language';

/**
 * Formats what translations interpolate: with `alwaysFormat`, every value passes through here,
 * whatever its placeholder says, so a number passed to `t()` is always written by `formatNumber`
 * in the translation's language ("97,000 credits", never "97000"). Other values stay as they are.
 */
export const numberFormatter: FormatterModule = {
  type: 'formatter',
  init: () => undefined,
  add: () => {
    throw new Error('The console formats numbers alone (formatNumber); add no i18next format');
  },
  addCached: () => {
    throw new Error('The console formats numbers alone (formatNumber); add no i18next format');
  },
  // Anything else goes back as it came: i18next itself turns it into text, or reports a
  // placeholder given no value.
  format: (value: unknown, _format, lng) =>
    (typeof value === 'number' ? formatNumber(value, languageOf(lng)) : value) as string,
};

/**
 * How the console's i18next is set up, but for the starting language. Plurals follow each
 * language's CLDR rules: English has `_one` and `_other` keys, Thai only `_other`.
 */
export const I18N_OPTIONS = {
  resources,
  fallbackLng: 'en',
  supportedLngs: LANGUAGES,
  interpolation: { escapeValue: false, alwaysFormat: true },
  returnNull: false,
} as const satisfies InitOptions;

/** The language chosen before on this browser, else the browser's own if it is Thai. */
export function initialLanguage(): Language {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // Storage refused (private mode, policy): fall through to the browser's language.
  }
  return navigator.languages.some((tag) => tag.toLowerCase().startsWith('th')) ? 'th' : 'en';
}

/** Switches the console's language and remembers it on this browser. */
export async function changeLanguage(language: Language): Promise<void> {
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Not remembered, still switched.
  }
  await i18next.changeLanguage(language);
}

export function currentLanguage(): Language {
  return isLanguage(i18next.resolvedLanguage) ? i18next.resolvedLanguage : 'en';
}

export async function initI18n(): Promise<typeof i18next> {
  i18next.on('languageChanged', (language) => {
    // Screen readers pick their voice from it, and CSS line breaking from it.
    document.documentElement.lang = language;
  });
  await i18next
    .use(initReactI18next)
    .use(numberFormatter)
    .init({ ...I18N_OPTIONS, lng: initialLanguage() });
  document.documentElement.lang = currentLanguage();
  return i18next;
}

/** A main area of the console, as its translations name it (`areas.<key>.title`, …). */
export type AreaKey = keyof typeof en.areas;
