import {
  formatAmount,
  messagesFor,
  pickLanguage,
  pickLanguageFromHeader,
  PAGE_LANGUAGES,
} from './payment-page.i18n';

describe('payment page language', () => {
  it.each([
    ['ru', 'ru'],
    ['RU', 'ru'],
    ['ru-RU', 'ru'],
    ['ru_RU', 'ru'],
    [' en ', 'en'],
    ['en-GB', 'en'],
    ['de', 'en'],
    ['', 'en'],
    [null, 'en'],
    ['russian', 'en'],
  ])('the payin language %p shows the page in %p', (language, expected) => {
    expect(pickLanguage(language)).toBe(expected);
  });

  it('takes the first supported language of Accept-Language for pages without a payin', () => {
    expect(pickLanguageFromHeader('de-DE,de;q=0.9,ru;q=0.8,en;q=0.5')).toBe('ru');
    expect(pickLanguageFromHeader('en-US,en;q=0.9,ru;q=0.8')).toBe('en');
    expect(pickLanguageFromHeader('fr')).toBe('en');
    expect(pickLanguageFromHeader(undefined)).toBe('en');
  });

  it('has every message in every language', () => {
    const keysOf = (value: object): string[] =>
      Object.entries(value).flatMap(([key, inner]) =>
        inner && typeof inner === 'object' ? keysOf(inner).map((k) => `${key}.${k}`) : [key],
      );
    const english = keysOf(messagesFor('en')).sort();
    for (const language of PAGE_LANGUAGES) {
      expect(keysOf(messagesFor(language)).sort()).toEqual(english);
      for (const key of english) {
        const value = key
          .split('.')
          .reduce<unknown>(
            (node, part) => (node as Record<string, unknown>)[part],
            messagesFor(language),
          );
        if (typeof value === 'string') expect(value.trim()).not.toBe('');
      }
    }
  });
});

describe('amount display', () => {
  it.each([
    ['1500.00', 'en', '1,500.00'],
    ['1500.5', 'en', '1,500.50'],
    ['999999999.99', 'en', '999,999,999.99'],
    ['0.01', 'en', '0.01'],
    ['100', 'en', '100.00'],
    ['1500.00', 'ru', '1\u202f500,00'],
    ['1234567.13', 'ru', '1\u202f234\u202f567,13'],
  ] as const)('%s in %s is %p, regrouped as text without a float', (amount, language, expected) => {
    expect(formatAmount(amount, language)).toBe(expected);
  });

  it('keeps digits a float would lose', () => {
    expect(formatAmount('900719925474099.99', 'en')).toBe('900,719,925,474,099.99');
  });
});
