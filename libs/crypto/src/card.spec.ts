import { isValidCardNumber, maskCardNumber, passesLuhn } from './card';
import { FieldCipher } from './cipher';
import { randomBytes } from 'node:crypto';

describe('maskCardNumber', () => {
  it('keeps the first 6 and last 4 digits of a 16-digit card', () => {
    expect(maskCardNumber('4111111111111111')).toBe('411111******1111');
  });
  it('masks 13- and 19-digit cards the same way', () => {
    expect(maskCardNumber('4222222222222')).toBe('422222***2222');
    expect(maskCardNumber('6011000990139424123')).toBe('601100*********4123');
  });
  it('ignores separators and passes null through', () => {
    expect(maskCardNumber('4111 1111 1111 1111')).toBe('411111******1111');
    expect(maskCardNumber(null)).toBeNull();
  });
  it('hides a short value entirely rather than leak most of it', () => {
    expect(maskCardNumber('1234567890')).toBe('**********');
  });
});

describe('Luhn', () => {
  it('accepts known test cards and refuses a changed digit', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('5555555555554444')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
  });
  it('bounds a payout card to 13..19 digits', () => {
    expect(isValidCardNumber('4222222222222')).toBe(true);
    expect(isValidCardNumber('422222222222')).toBe(false);
    expect(isValidCardNumber('4111 1111 1111 1111')).toBe(false);
    expect(isValidCardNumber(4111111111111111)).toBe(false);
  });
});

describe('FieldCipher', () => {
  const cipher = new FieldCipher(randomBytes(32));
  it('round-trips and never repeats a ciphertext', () => {
    const a = cipher.encrypt('4111111111111111');
    const b = cipher.encrypt('4111111111111111');
    expect(a).not.toBe(b);
    expect(a).not.toContain('4111');
    expect(cipher.decrypt(a)).toBe('4111111111111111');
  });
  it('refuses a tampered value', () => {
    const sealed = cipher.encrypt('secret');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other!').toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'))).toThrow();
  });
  it('refuses a value sealed with another key', () => {
    const other = new FieldCipher(randomBytes(32));
    expect(() => other.decrypt(cipher.encrypt('x'))).toThrow();
  });
});
