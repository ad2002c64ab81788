import { canonicalMessage, pathPayload, sign, verify } from './signature';

// Expected digests were computed outside this code, e.g.:
//   echo -n 'transactionId=6f1c…' | openssl dgst -sha256 -hmac 'priv_secret'
describe('canonicalMessage (merchant-api.md 5.1)', () => {
  it('drops the signature field', () => {
    expect(canonicalMessage({ a: '1', signature: 'abc' })).toBe('a=1');
  });

  it('drops empty, whitespace-only, null and undefined values', () => {
    expect(canonicalMessage({ a: '', b: '   ', c: '\t\n', d: null, e: undefined, f: 'x' })).toBe(
      'f=x',
    );
  });

  it('keeps zero, false and empty containers, which are values', () => {
    expect(canonicalMessage({ z: 0, f: false, o: {}, l: [] })).toBe('f=false&l=[]&o={}&z=0');
  });

  it('sorts keys ascending by code unit', () => {
    expect(canonicalMessage({ b: '2', a: '1', B: '3', aa: '4' })).toBe('B=3&a=1&aa=4&b=2');
  });

  it('keeps strings as sent: untrimmed and not URL-encoded', () => {
    expect(canonicalMessage({ d: ' hi there ', u: 'https://x.io/?q=a b&c=%20' })).toBe(
      'd= hi there &u=https://x.io/?q=a b&c=%20',
    );
  });

  it('writes objects and arrays as compact JSON', () => {
    expect(canonicalMessage({ meta: { a: [1, 2], b: 'x' }, list: ['a', { k: null }] })).toBe(
      'list=["a",{"k":null}]&meta={"a":[1,2],"b":"x"}',
    );
  });

  it('writes numbers and booleans in plain form', () => {
    expect(canonicalMessage({ n: 100.5, i: 42, t: true, neg: -1.25 })).toBe(
      'i=42&n=100.5&neg=-1.25&t=true',
    );
  });
});

describe('sign', () => {
  it('matches an openssl vector for a mixed body', () => {
    const body = {
      signature: 'ignored',
      ok: true,
      meta: { a: [1, 2], b: 'x' },
      isTest: 1,
      description: ' hi there ',
      clientId: 42,
      amount: 100.5,
      empty: '  ',
    };
    expect(sign(body, 'priv_secret')).toBe(
      '50b812a3145ddafe5b91a5a8a9b6b069069a8665567c3fc0ee96bb1975e648b4',
    );
  });

  it('matches an openssl vector for the transactionId rule of path endpoints', () => {
    expect(sign(pathPayload('6f1c2d9e-4b7a-4c1e-9a3b-2f8d5e7c1a90'), 'priv_secret')).toBe(
      'db8cc19bf80e425c7bab28fb98a72ad3facd9354637d4808b8130e24d6585605',
    );
  });

  it('matches an openssl vector with spaces, percent signs and non-ASCII text', () => {
    expect(sign({ c: 'é', b: '%20x', a: 'a b' }, 'k')).toBe(
      'e9957219320b469f50adea94efa9c4126739932c89411589d35af00ae8fe4a70',
    );
  });

  it('is lowercase hex of 64 characters', () => {
    expect(sign({ a: 1 }, 'k')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('verify', () => {
  const params = { amount: 10, clientId: 1 };
  const good = sign(params, 'secret');

  it('accepts the right signature', () => {
    expect(verify(params, 'secret', good)).toBe(true);
  });

  it('refuses a signature made with another key', () => {
    expect(verify(params, 'other', good)).toBe(false);
  });

  it('refuses a changed parameter', () => {
    expect(verify({ ...params, amount: 11 }, 'secret', good)).toBe(false);
  });

  it('refuses uppercase hex, a truncated value and a non-string', () => {
    expect(verify(params, 'secret', good.toUpperCase())).toBe(false);
    expect(verify(params, 'secret', good.slice(0, 63))).toBe(false);
    expect(verify(params, 'secret', 123)).toBe(false);
  });
});
