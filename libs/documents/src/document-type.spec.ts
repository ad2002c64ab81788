import { detectDocumentType, safeFileName } from './document-type';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d1a0e20000000049454e44ae426082', 'hex');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const GIF = Buffer.from('474946383961010001000000002c00000000010001000002024401003b', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffdb004300' + '08'.repeat(64) + 'ffd9', 'hex');

describe('proof document types by content', () => {
  it('accepts PNG, JPEG and PDF by their bytes', async () => {
    await expect(detectDocumentType(PNG)).resolves.toEqual({ mimeType: 'image/png', extension: 'png' });
    await expect(detectDocumentType(JPEG)).resolves.toEqual({ mimeType: 'image/jpeg', extension: 'jpg' });
    await expect(detectDocumentType(PDF)).resolves.toEqual({ mimeType: 'application/pdf', extension: 'pdf' });
  });

  it('refuses GIF, SVG and plain text whatever they claim to be', async () => {
    await expect(detectDocumentType(GIF)).resolves.toBeNull();
    await expect(detectDocumentType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).resolves.toBeNull();
    await expect(detectDocumentType(Buffer.from('just some text pretending to be a pdf'))).resolves.toBeNull();
  });

  it('keeps only the base name of an uploaded file, without control characters', () => {
    expect(safeFileName('../../etc/passwd', 'pdf')).toBe('passwd');
    expect(safeFileName('C:\\docs\\receipt "1".png', 'png')).toBe('receipt 1.png');
    expect(safeFileName('', 'pdf')).toBe('proof.pdf');
  });
});
