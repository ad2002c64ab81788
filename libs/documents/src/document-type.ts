import { fromBuffer } from 'file-type';

/**
 * Proof files are typed by their content, never by the declared type or name
 * (decisions.md section 3). GIF and SVG are refused: SVG can carry script, GIF is excluded
 * by the contract. file-type reads the magic bytes; this list decides what is allowed.
 */
export const ALLOWED_DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'image/avif': 'avif',
  'image/bmp': 'bmp',
  'image/tiff': 'tif',
  'application/pdf': 'pdf',
};

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

export interface DocumentType {
  mimeType: string;
  extension: string;
}

/** The allowed type the bytes really are, or null (unknown, GIF, SVG, text, anything else). */
export async function detectDocumentType(content: Buffer): Promise<DocumentType | null> {
  const detected = await fromBuffer(content);
  if (!detected) return null;
  // file-type reports HEIC variants and AVIF under a few names; normalise before the lookup.
  const mimeType = detected.mime === 'image/heic-sequence' ? 'image/heic' : detected.mime === 'image/heif-sequence' ? 'image/heif' : detected.mime;
  const extension = ALLOWED_DOCUMENT_TYPES[mimeType];
  return extension ? { mimeType, extension } : null;
}

/** A file name safe to echo back: no path, no control characters, at most 255 characters. */
export function safeFileName(name: string | undefined, extension: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(0, 255);
  return cleaned || `proof.${extension}`;
}
