import { isAbsent, signedParts } from './signed-payload';

describe('signedParts (merchant-api.md 5.1 rules 1 and 2)', () => {
  it('signs the query of a GET and the body of other methods, as sent', () => {
    const query = { page: '2', limit: '10', signature: 'q' };
    const body = { amount: 100.5, extra: { a: [1] }, signature: 'b' };
    expect(signedParts('GET', query, body, undefined)).toEqual({
      params: query,
      signature: 'q',
      payload: query,
    });
    expect(signedParts('post', query, body, undefined)).toEqual({
      params: body,
      signature: 'b',
      payload: body,
    });
  });

  it('signs only transactionId from the path on a path endpoint, whatever else is sent', () => {
    const body = { transactionId: 'something-else', signature: 's', reason: 'ignored' };
    expect(signedParts('DELETE', {}, body, 'path-id').payload).toEqual({
      transactionId: 'path-id',
    });
    expect(signedParts('GET', { signature: 's' }, undefined, 'path-id').payload).toEqual({
      transactionId: 'path-id',
    });
  });

  it('adds the replay fields to a path payload when they are sent', () => {
    const body = { transactionId: 'x', signature: 's', timestamp: 1795431000, nonce: 'n-1' };
    expect(signedParts('PATCH', {}, body, 'path-id').payload).toEqual({
      transactionId: 'path-id',
      timestamp: 1795431000,
      nonce: 'n-1',
    });
  });

  it('treats a body that is not an object as carrying no parameters', () => {
    expect(signedParts('POST', {}, ['signature'], undefined)).toEqual({
      params: {},
      signature: undefined,
      payload: {},
    });
    expect(signedParts('POST', {}, undefined, undefined).signature).toBeUndefined();
  });
});

describe('isAbsent', () => {
  it('matches the 5.1 strip rule: missing, null, empty or whitespace-only strings', () => {
    for (const value of [undefined, null, '', '  ', '\t\n']) expect(isAbsent(value)).toBe(true);
    for (const value of ['x', ' x ', 0, false, [], {}]) expect(isAbsent(value)).toBe(false);
  });
});
