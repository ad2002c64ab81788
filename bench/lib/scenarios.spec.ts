import { rotatedForRound } from './scenarios';

describe('rotatedForRound', () => {
  const pages = ['p1-20', 'random-20', 'last-20', 'p1-100', 'random-100', 'last-100'];

  it('starts each of three rounds at another page, so no page is always measured first on fresh processes', () => {
    const firsts = [1, 2, 3].map((round) => rotatedForRound(pages, round, 3)[0]);
    expect(firsts).toEqual(['p1-20', 'last-20', 'random-100']);
    for (const round of [1, 2, 3])
      expect([...rotatedForRound(pages, round, 3)].sort()).toEqual([...pages].sort());
  });

  it('leaves a single measurement, and a single round, as they are', () => {
    expect(rotatedForRound(['a'], 2, 3)).toEqual(['a']);
    expect(rotatedForRound(pages, 1, 1)).toEqual(pages);
  });
});
