import type { LookupAddress } from 'node:dns';
import {
  assertLiteralHostAllowed,
  BlockedAddressError,
  guardedLookup,
  isBlockedAddress,
} from './ssrf-guard';

describe('isBlockedAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback, end of range'],
    ['10.20.30.40', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12, end of range'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fd00:ec2::254', 'AWS IPv6 metadata'],
    ['fc00::1', 'unique local'],
    ['fe80::1', 'IPv6 link-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['localhost', 'not an IP literal'],
    ['2130706433', 'not an IP literal (decimal form is a URL-parser matter)'],
  ])('refuses %s (%s)', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '169.253.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
  ])('allows the public address %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});

describe('assertLiteralHostAllowed', () => {
  it.each([
    'http://127.0.0.1:8080/hook',
    'http://2130706433/hook',
    'http://0x7f.1/hook',
    'http://0x7f000001/hook',
    'http://017700000001/hook',
    'http://0177.0.0.1/hook',
    'http://127.1/hook',
    'http://0/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[0:0:0:0:0:0:0:1]/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'https://10.0.0.5/hook',
  ])('refuses %s', (url) => {
    expect(() => assertLiteralHostAllowed(new URL(url))).toThrow(BlockedAddressError);
  });

  it.each([
    'https://8.8.8.8/hook',
    'https://[2606:4700:4700::1111]/hook',
    'https://shop.example.com/hook',
  ])('lets %s through (names are checked at connect time)', (url) => {
    expect(() => assertLiteralHostAllowed(new URL(url))).not.toThrow();
  });
});

describe('guardedLookup', () => {
  const resolverOf =
    (answers: LookupAddress[] | Error) =>
    (
      _hostname: string,
      _options: object,
      callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
    ) => (answers instanceof Error ? callback(answers, []) : callback(null, answers));

  const run = (answers: LookupAddress[] | Error, all: boolean) =>
    new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) =>
      guardedLookup(resolverOf(answers))('hook.example', { all }, (error, address, family) =>
        resolve({ error, address, family }),
      ),
    );

  it('refuses a name that resolves only to loopback', async () => {
    const { error } = await run([{ address: '127.0.0.1', family: 4 }], false);
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect(error?.message).toContain('127.0.0.1');
  });

  it('refuses a name whose every address is private or metadata', async () => {
    const { error } = await run(
      [
        { address: '169.254.169.254', family: 4 },
        { address: 'fd00:ec2::254', family: 6 },
      ],
      true,
    );
    expect(error).toBeInstanceOf(BlockedAddressError);
  });

  it('connects only to the public addresses of a name that also resolves to private ones', async () => {
    const answers = [
      { address: '127.0.0.1', family: 4 },
      { address: '93.184.216.34', family: 4 },
      { address: '::1', family: 6 },
    ];
    expect(await run(answers, true)).toEqual({
      error: null,
      address: [{ address: '93.184.216.34', family: 4 }],
      family: undefined,
    });
    expect(await run(answers, false)).toEqual({ error: null, address: '93.184.216.34', family: 4 });
  });

  it('passes a resolver failure through', async () => {
    const failure = Object.assign(new Error('getaddrinfo ENOTFOUND hook.example'), {
      code: 'ENOTFOUND',
    });
    const { error } = await run(failure, false);
    expect(error).toBe(failure);
  });
});
