/** decisions.md section 3: keep the first 6 and last 4 digits, hide the rest with `*`. */
export function maskCardNumber(cardNumber: string | null | undefined): string | null {
  if (cardNumber === null || cardNumber === undefined) return null;
  const digits = cardNumber.replace(/\D/g, '');
  if (digits.length < 11) return '*'.repeat(digits.length);
  return digits.slice(0, 6) + '*'.repeat(digits.length - 10) + digits.slice(-4);
}

/** The Luhn (mod 10) check of card numbers. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** decisions.md section 3: a payout card is 13 to 19 digits passing the Luhn check. */
export function isValidCardNumber(value: unknown): value is string {
  return typeof value === 'string' && /^\d{13,19}$/.test(value) && passesLuhn(value);
}
