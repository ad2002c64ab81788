import { parseOptions } from './options';

describe('bench options', () => {
  it('passes --node-flags to the services as separate flags, none by default', () => {
    expect(parseOptions(['--node-flags', '--trace-gc --log-maps']).nodeFlags).toEqual([
      '--trace-gc',
      '--log-maps',
    ]);
    expect(parseOptions(['--node-flags=--trace-gc']).nodeFlags).toEqual(['--trace-gc']);
    expect(parseOptions([]).nodeFlags).toEqual([]);
  });
});
