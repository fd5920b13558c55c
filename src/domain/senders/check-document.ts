import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { DomainError, invalidParameter } from '../errors.js';
import {
  DOCUMENT_TYPES,
  MAX_DOCUMENT_NAME_CHARS,
  type DocumentType,
} from './sender-request-rules.js';
import { countCharacters } from '../limits.js';

/** A document as it was uploaded: its name and declared type are the sender's word only. */
export interface UploadedDocument {
  readonly fileName: string;
  /** The Content-Type the upload declared, if any. */
  readonly declaredType?: string;
  readonly content: Uint8Array;
}

export interface CheckedDocument {
  readonly fileName: string;
  /** What the bytes are. */
  readonly contentType: DocumentType;
  readonly sha256: string;
  readonly content: Uint8Array;
}

// Declared types that say nothing (a browser that does not know the file) and the old
// spellings of JPEG some clients still send.
const UNINFORMATIVE = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
const ALIASES: Record<string, string> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg' };

/**
 * Accepts a document only as a PDF, PNG or JPEG that its bytes show it to be (file-type reads
 * the signature), no larger than `maxBytes`, and whose name and declared type agree with its
 * bytes: a renamed executable, an image named `.pdf` or a PDF declared `image/png` are refused.
 */
export async function checkDocument(
  document: UploadedDocument,
  maxBytes: number,
): Promise<CheckedDocument> {
  const fileName = cleanFileName(document.fileName);
  const size = document.content.byteLength;
  if (size > maxBytes) {
    throw new DomainError(
      'DOCUMENT_TOO_LARGE',
      `"${fileName}" is ${size} bytes; a document may be at most ${maxBytes} bytes`,
    );
  }
  if (size === 0) {
    throw new DomainError(
      'DOCUMENT_TYPE_NOT_ALLOWED',
      `"${fileName}" is empty; send a PDF, PNG or JPEG`,
    );
  }
  const sniffed = await fileTypeFromBuffer(document.content);
  const contentType = sniffed?.mime;
  if (!contentType || !isDocumentType(contentType)) {
    throw new DomainError(
      'DOCUMENT_TYPE_NOT_ALLOWED',
      `"${fileName}" is ${sniffed ? `a ${sniffed.mime} file` : 'not a file type Nok recognises'}; documents must be PDF, PNG or JPEG`,
    );
  }
  const extension = fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1) : '';
  const extensions: readonly string[] = DOCUMENT_TYPES[contentType];
  if (!extensions.includes(extension.toLowerCase())) {
    throw new DomainError(
      'DOCUMENT_TYPE_MISMATCH',
      `"${fileName}" holds ${describe(contentType)} but its name does not say so; name it .${extensions[0]}`,
    );
  }
  const declared = normaliseType(document.declaredType);
  if (!UNINFORMATIVE.has(declared) && declared !== contentType) {
    throw new DomainError(
      'DOCUMENT_TYPE_MISMATCH',
      `"${fileName}" was sent as ${declared} but holds ${describe(contentType)}`,
    );
  }
  return {
    fileName,
    contentType,
    sha256: createHash('sha256').update(document.content).digest('hex'),
    content: document.content,
  };
}

function isDocumentType(type: string): type is DocumentType {
  return Object.hasOwn(DOCUMENT_TYPES, type);
}

function describe(type: DocumentType): string {
  return type === 'application/pdf'
    ? 'a PDF'
    : type === 'image/png'
      ? 'a PNG image'
      : 'a JPEG image';
}

function normaliseType(type: string | undefined): string {
  const bare = (type ?? '').split(';')[0]!.trim().toLowerCase();
  return ALIASES[bare] ?? bare;
}

/** The last path segment, without control characters; refused when nothing is left. */
function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (clean.length === 0) throw invalidParameter('every document needs a file name');
  if (countCharacters(clean) > MAX_DOCUMENT_NAME_CHARS) {
    throw invalidParameter(
      `a document's file name has at most ${MAX_DOCUMENT_NAME_CHARS} characters; "${clean.slice(0, 40)}…" has ${countCharacters(clean)}`,
    );
  }
  return clean;
}
