/** Small real files of each kind, for proof uploads. Types are decided by these bytes, never by names. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d1a0e20000000049454e44ae426082',
  'hex',
);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
export const JPEG = Buffer.from(
  'ffd8ffe000104a46494600010100000100010000ffdb004300' + '08'.repeat(64) + 'ffd9',
  'hex',
);
export const GIF = Buffer.from('474946383961010001000000002c00000000010001000002024401003b', 'hex');
export const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>',
);
export const TEXT = Buffer.from('just some text pretending to be a pdf\n');

/** A PNG of exactly `size` bytes: a real signature and header, padded after the end chunk. */
export function pngOfSize(size: number): Buffer {
  const file = Buffer.alloc(size);
  PNG.copy(file);
  return file;
}
