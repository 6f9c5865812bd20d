/**
 * Hand-written checks of the answers that can be thousands of entries long
 * (a rename's WorkspaceEdit, a references list), and of the answers every
 * warm question gets (a definition, a hover), as strict as their zod
 * shapes in message-shapes.ts: zod builds a copy of every object it
 * checks, which cost a 2,000-file rename 10-30 ms on the daemon's one
 * thread. Where a check here passes, the answer fits its shape; where it
 * fails, zod checks it again to say what is wrong. Pure.
 */

type Fields = Record<string, unknown>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown) => typeof v === 'string';
const nullish = (v: unknown) => v === null || v === undefined;

const isPosition = (v: unknown) => isObject(v) && isNumber(v.line) && isNumber(v.character);
const isRange = (v: unknown) => isObject(v) && isPosition(v.start) && isPosition(v.end);
const isTextEdit = (v: unknown) => isObject(v) && isRange(v.range) && isString(v.newText);
const isTextEdits = (v: unknown) => Array.isArray(v) && v.every(isTextEdit);
const isLocation = (v: unknown) => isObject(v) && isString(v.uri) && isRange(v.range);

function isDocumentChange(v: unknown): boolean {
  if (!isObject(v)) return false;
  const doc = v.textDocument;
  if (
    isObject(doc) &&
    isString(doc.uri) &&
    (doc.version === undefined || doc.version === null || isNumber(doc.version))
  )
    if (isTextEdits(v.edits)) return true;
  if (v.kind === 'create' || v.kind === 'delete') return isString(v.uri);
  return v.kind === 'rename' && isString(v.oldUri) && isString(v.newUri);
}

/** A WorkspaceEdit, null or undefined (a rename's, a move's answer). */
export function fitsWorkspaceEditOrNull(v: unknown): boolean {
  if (nullish(v)) return true;
  if (!isObject(v)) return false;
  const { changes, documentChanges } = v;
  if (changes !== undefined && !(isObject(changes) && Object.values(changes).every(isTextEdits))) return false;
  return documentChanges === undefined || (Array.isArray(documentChanges) && documentChanges.every(isDocumentChange));
}

/** A list of Locations, null or undefined (a references answer). */
export function fitsLocationsOrNull(v: unknown): boolean {
  return nullish(v) || (Array.isArray(v) && v.every(isLocation));
}

const isLocationLink = (v: unknown) =>
  isObject(v) && isString(v.targetUri) && isRange(v.targetRange) && isRange(v.targetSelectionRange);

/** A Location, a list of Locations and LocationLinks, null or undefined (def, typedef, impls). */
export function fitsLocationOrLinks(v: unknown): boolean {
  if (nullish(v) || isLocation(v)) return true;
  return Array.isArray(v) && v.every((x) => isLocation(x) || isLocationLink(x));
}

const isMarkup = (v: unknown) => isObject(v) && isString(v.kind) && isString(v.value);
const isMarkedString = (v: unknown) => isString(v) || (isObject(v) && isString(v.language) && isString(v.value));

/** A Hover, null or undefined. */
export function fitsHoverOrNull(v: unknown): boolean {
  if (nullish(v)) return true;
  if (!isObject(v) || (v.range !== undefined && !isRange(v.range))) return false;
  const c = v.contents;
  return isMarkup(c) || isMarkedString(c) || (Array.isArray(c) && c.every(isMarkedString));
}
