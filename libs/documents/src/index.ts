export { ALLOWED_DOCUMENT_TYPES, MAX_DOCUMENT_BYTES, detectDocumentType, safeFileName, type DocumentType } from './document-type';
