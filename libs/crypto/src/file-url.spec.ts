import { signFileUrl, verifyFileUrl } from './file-url';

describe('signed file URLs', () => {
  const secret = 'file-url-secret';
  const now = Date.UTC(2026, 10, 23, 12, 0, 0);

  function parts(url: string) {
    const parsed = new URL(url);
    return { key: decodeURIComponent(parsed.pathname.split('/').pop()!), expires: parsed.searchParams.get('expires')!, sig: parsed.searchParams.get('sig')! };
  }

  it('accepts its own link until it expires, then reports it expired', () => {
    const { key, expires, sig } = parts(signFileUrl('http://core.test/', 'abc.pdf', secret, 3600, now));
    expect(key).toBe('abc.pdf');
    expect(verifyFileUrl(key, expires, sig, secret, now)).toBe('ok');
    expect(verifyFileUrl(key, expires, sig, secret, Number(expires) * 1000 + 1)).toBe('expired');
  });

  it('gives the same link for the same key within one TTL slot, so cached payloads agree', () => {
    expect(signFileUrl('http://c', 'k', secret, 3600, now)).toBe(signFileUrl('http://c', 'k', secret, 3600, now + 1000));
  });

  it('refuses a link for another key, another expiry, another secret or a malformed signature', () => {
    const { key, expires, sig } = parts(signFileUrl('http://c', 'a.png', secret, 60, now));
    expect(verifyFileUrl('b.png', expires, sig, secret, now)).toBe('invalid');
    expect(verifyFileUrl(key, String(Number(expires) + 60), sig, secret, now)).toBe('invalid');
    expect(verifyFileUrl(key, expires, sig, 'other', now)).toBe('invalid');
    expect(verifyFileUrl(key, expires, 'zz', secret, now)).toBe('invalid');
    expect(verifyFileUrl(key, undefined, sig, secret, now)).toBe('invalid');
  });
});
