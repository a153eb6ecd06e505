// The wire contract with `agentws serve`: method names, parameter shapes and the preview JSON.
// Every field name the extension reads from the server lives here, so a change on the server side
// is one edit in this file. It must not import `vscode` (it is shared by the tests and the webview
// renderer).

/** Custom request methods of the language server (docs/protocol.md). */
export const Methods = {
  previewPrompt: 'agentws/previewPrompt',
  storeUsers: 'agentws/storeUsers',
  checkStore: 'agentws/checkStore',
  storeDocument: 'agentws/storeDocument',
  fileStatus: 'agentws/fileStatus',
  runBegin: 'agentws/runBegin',
  normalizePath: 'agentws/normalizePath',
  runEnd: 'agentws/runEnd',
} as const;

/** JSON-RPC error code for an unknown method. */
export const METHOD_NOT_FOUND = -32601;

/** camelCase counterparts of the `agentws preview` flags; every field is optional. */
export interface PreviewContext {
  userId?: string;
  sessionId?: string;
  scope?: 'user' | 'session' | 'agent' | 'global';
  filesystem?: 'local' | 'sandbox' | 'remote';
  sandboxRoot?: string;
  /** The runtime release to model: a version (`2.0.2`, `2.0.3`, `2.1.0-SNAPSHOT`), `main`, or an old name (`2026-08`, `2026-09`). */
  harness?: string;
  date?: string;
  os?: string;
  tmpDir?: string;
  plan?: 'active' | 'recorded' | 'off';
}

export interface PreviewParams {
  uri?: string;
  context?: PreviewContext;
  /** The `resultId` of the answer the client holds (`null`: none yet); see {@link takePreviewAnswer}. */
  previousResultId?: string | null;
}

/** One edit of a preview answer (docs/protocol.md, "Edits instead of the whole answer"). */
export type PreviewEdit =
  | { op: 'set'; path: (string | number)[]; value: unknown }
  | { op: 'remove'; path: (string | number)[] }
  | { op: 'splice'; path: (string | number)[]; start: number; deleteCount: number; insert: unknown };

/** The whole answer a client holds and its id; later answers come as edits of it. */
export interface HeldPreview {
  resultId: string | null;
  answer: unknown;
}

/**
 * The whole answer for `result`, which is either whole (with a new `resultId`) or the edits of the
 * answer `held` holds; `held` then holds the new answer. Throws when edits do not apply (an answer
 * for another request, a malformed edit), leaving `held` empty so that the next call asks whole.
 */
export function takePreviewAnswer(held: HeldPreview, result: unknown): unknown {
  if (!isObject(result)) {
    throw new Error('agentws/previewPrompt returned no object');
  }
  const resultId = typeof result.resultId === 'string' ? result.resultId : null;
  if (!Array.isArray(result.edits)) {
    const { resultId: _, ...answer } = result;
    held.resultId = resultId;
    held.answer = answer;
    return answer;
  }
  const base = held.answer;
  const matches = held.resultId !== null && result.previousResultId === held.resultId;
  held.resultId = null;
  held.answer = undefined;
  if (!matches || base === undefined) {
    throw new Error('agentws/previewPrompt sent edits of an answer this client does not hold');
  }
  const answer = applyPreviewEdits(base, result.edits as PreviewEdit[]);
  held.resultId = resultId;
  held.answer = answer;
  return answer;
}

/**
 * `root` with `edits` applied in order; string offsets are UTF-8 bytes. `root` is left as it was:
 * each object or list on an edit's path is copied before it changes (once per call), so what no
 * edit touched keeps its identity, and {@link toPreviewModel} reuses what it read from it.
 */
export function applyPreviewEdits(root: unknown, edits: PreviewEdit[]): unknown {
  const copies = new Set<unknown>();
  const own = (value: unknown): unknown => {
    if (copies.has(value) || !(Array.isArray(value) || isObject(value))) {
      return value;
    }
    const copy = Array.isArray(value) ? value.slice() : { ...value };
    copies.add(copy);
    return copy;
  };
  for (const edit of edits) {
    if (!isObject(edit) || !Array.isArray(edit.path)) {
      throw new Error(`malformed preview edit: ${JSON.stringify(edit)}`);
    }
    const path = edit.path;
    const at = () => path.reduce<unknown>((value, step) => stepInto(value, step), root);
    let next: unknown;
    switch (edit.op) {
      case 'set':
        next = edit.value;
        break;
      case 'remove':
        next = undefined;
        break;
      case 'splice':
        next = spliced(at(), edit.start, edit.deleteCount, edit.insert);
        break;
      default:
        throw new Error(`unknown preview edit: ${JSON.stringify(edit)}`);
    }
    if (path.length === 0) {
      root = next;
      continue;
    }
    root = own(root);
    const parent = path.slice(0, -1).reduce<unknown>((value, step) => {
      const child = own(stepInto(value, step));
      (value as Record<string | number, unknown>)[step] = child;
      return child;
    }, root);
    const last = path[path.length - 1];
    if (Array.isArray(parent) && typeof last === 'number' && edit.op !== 'remove') {
      parent[last] = next;
    } else if (isObject(parent) && typeof last === 'string') {
      if (edit.op === 'remove') {
        delete parent[last];
      } else {
        parent[last] = next;
      }
    } else {
      throw new Error(`preview edit path does not apply: ${JSON.stringify(path)}`);
    }
  }
  return root;
}

function stepInto(value: unknown, step: string | number): unknown {
  if (Array.isArray(value) && typeof step === 'number' && step >= 0 && step < value.length) {
    return value[step];
  }
  if (isObject(value) && typeof step === 'string' && step in value) {
    return value[step];
  }
  throw new Error(`preview edit path does not apply at ${JSON.stringify(step)}`);
}

function spliced(target: unknown, start: number, deleteCount: number, insert: unknown): unknown {
  if (typeof target === 'string' && typeof insert === 'string') {
    const length = Buffer.byteLength(target, 'utf8');
    if (start < 0 || deleteCount < 0 || start + deleteCount > length) {
      throw new Error(`preview edit splices outside the string (${start}+${deleteCount} of ${length})`);
    }
    const first = utf16Index(target, start);
    const last = first === undefined ? undefined : utf16Index(target, start + deleteCount, { index: first, byte: start });
    if (first === undefined || last === undefined) {
      throw new Error(`preview edit splices inside a character (${start}+${deleteCount})`);
    }
    return target.slice(0, first) + insert + target.slice(last);
  }
  if (Array.isArray(target) && Array.isArray(insert)) {
    if (start < 0 || deleteCount < 0 || start + deleteCount > target.length) {
      throw new Error(`preview edit splices outside the list (${start}+${deleteCount} of ${target.length})`);
    }
    return target.slice(0, start).concat(insert, target.slice(start + deleteCount));
  }
  throw new Error('preview edit splices neither a string nor a list');
}

export interface StoreUsersParams {
  uri?: string;
  scope?: PreviewContext['scope'];
}

/** The ids the configured store holds: user ids, or session ids under scope `session`. */
export interface StoreUsers {
  /** The store URL, password masked; null when the project configures no store. */
  store: string | null;
  scope: string;
  ids: string[];
}

export function toStoreUsers(raw: unknown): StoreUsers {
  if (!isObject(raw)) {
    throw new Error('agentws/storeUsers returned no object');
  }
  const store = typeof raw.store === 'string' ? raw.store : null;
  const ids = Array.isArray(raw.ids) ? raw.ids.filter((id): id is string => typeof id === 'string' && id !== '') : [];
  return { store, scope: str(raw.scope, 'user'), ids };
}

/** The URI scheme of a stored file's read-only document (docs/protocol.md, "Stored files"). */
export const STORE_SCHEME = 'agentws-store';

/** Whether a location (a preview source's `path`) names a file read from the store. */
export function isStoredLocation(location: string): boolean {
  return location.startsWith('store:');
}

/**
 * The document URI of a stored file's location (`store:<namespace>:<key>`), spelt as the server
 * spells it: the scheme, an empty authority, then the location without `store:`, every byte but
 * the unreserved ones and `/` percent-encoded. (`vscode.Uri.toString` drops the empty authority,
 * `agentws-store:/…`; the server reads both.)
 */
export function storeDocumentUri(location: string): string {
  const rest = location.replace(/^store:/, '');
  const encoded = [...new TextEncoder().encode(rest)]
    .map((byte) => {
      const c = String.fromCharCode(byte);
      return /[A-Za-z0-9\-._~/]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
  return `${STORE_SCHEME}:///${encoded}`;
}

/** The answer of `agentws/storeDocument`. */
export interface StoreDocument {
  /** The stored file's location as every output prints it (`store:<namespace>:<key>`). */
  origin: string;
  text: string;
}

export function toStoreDocument(raw: unknown): StoreDocument {
  if (!isObject(raw) || typeof raw.text !== 'string') {
    throw new Error('agentws/storeDocument returned no text');
  }
  return { origin: str(raw.origin, ''), text: raw.text };
}

/** What `agentws/checkStore` read for one project. */
export interface StoreCheck {
  project: string;
  store: string;
  owners: number;
  files: number;
  diagnostics: number;
}

export function toStoreChecks(raw: unknown): StoreCheck[] {
  if (!Array.isArray(raw)) {
    throw new Error('agentws/checkStore returned no list');
  }
  return raw.filter(isObject).map((entry) => ({
    project: str(entry.project, ''),
    store: str(entry.store, ''),
    owners: typeof entry.owners === 'number' ? entry.owners : 0,
    files: typeof entry.files === 'number' ? entry.files : 0,
    diagnostics: typeof entry.diagnostics === 'number' ? entry.diagnostics : 0,
  }));
}

export interface FileStatusParams {
  uri: string;
}

/** Where a section's text came from; lines are 1-based and inclusive. */
export interface PreviewSource {
  path: string;
  startLine: number;
  endLine: number;
}

export interface PreviewSection {
  title: string;
  /** The server's kind (`memory-context`, `skills`, …); empty when it sends none. */
  kind: string;
  /** Byte offsets (UTF-8) into `PreviewModel.text`, end exclusive. */
  start: number;
  end: number;
  /** The section's own text, cut from `text` by the byte range. */
  body: string;
  sources: PreviewSource[];
  tokens: number;
}

export interface PreviewBudget {
  max: number;
  used: number;
  memoryTruncated: boolean;
}

/** The preview after normalisation: what the panel and the diff view render. */
export interface PreviewModel {
  text: string;
  sections: PreviewSection[];
  budget: PreviewBudget;
  notes: string[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function num(value: unknown, fallback = 0): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

/** Cuts `text` by UTF-8 byte offsets (the server's unit) rather than UTF-16 string indices. */
export function sliceByBytes(text: string, start: number, end: number): string {
  return cutByBytes(text, start, end).text;
}

/** A place in a text: its UTF-16 index and its UTF-8 byte offset. */
interface Place {
  index: number;
  byte: number;
}

/**
 * `sliceByBytes`, starting the count at `from` (a place at or before `start`; the text's start
 * by default), with the place where the cut ends, from which the next cut of an ascending series
 * can count on.
 */
function cutByBytes(text: string, start: number, end: number, from: Place = { index: 0, byte: 0 }): { text: string; end: Place } {
  const first = utf16Index(text, start, from);
  const last = first === undefined ? undefined : utf16Index(text, Math.max(start, end), { index: first, byte: start });
  if (first !== undefined && last !== undefined) {
    return { text: text.slice(first, last), end: { index: last, byte: Math.max(start, end) } };
  }
  // An offset inside a character is a server bug: cut the bytes, so it shows as U+FFFD.
  const bytes = Buffer.from(text, 'utf8');
  const lo = Math.max(0, Math.min(start, bytes.length));
  const hi = Math.max(lo, Math.min(end, bytes.length));
  return { text: bytes.subarray(lo, hi).toString('utf8'), end: { index: 0, byte: 0 } };
}

/**
 * The UTF-16 index of UTF-8 byte offset `byte` in `text`, counted from `from` (a place at or
 * before it); the text's length past its end; undefined when the offset falls inside a character.
 * A preview's text runs to megabytes and a description edit moves a few bytes in the middle, so
 * this avoids encoding the whole text: ASCII up to the offset costs one native count, and wider
 * characters make each further count at least a third shorter.
 */
export function utf16Index(text: string, byte: number, from: Place = { index: 0, byte: 0 }): number | undefined {
  // Each UTF-16 unit is at least one byte, so the index is at most this far on.
  let index = wholePairs(text, Math.min(from.index + Math.max(0, byte - from.byte), text.length));
  let bytes = from.byte + Buffer.byteLength(text.slice(from.index, index), 'utf8');
  while (bytes > byte) {
    // Each unit is at most three bytes (a surrogate pair, four for two), so stepping back a third
    // of the excess in units never passes the offset by more than the pair kept whole.
    const at = wholePairs(text, index - Math.max(1, Math.floor((bytes - byte) / 3)));
    bytes -= Buffer.byteLength(text.slice(at, index), 'utf8');
    index = at;
  }
  while (bytes < byte && index < text.length) {
    const code = text.codePointAt(index)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    index += code > 0xffff ? 2 : 1;
  }
  return bytes === byte || (bytes < byte && index === text.length) ? index : undefined;
}

/** `index`, moved back one unit when it would split a surrogate pair. */
function wholePairs(text: string, index: number): number {
  const low = text.charCodeAt(index);
  const high = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? index - 1 : index;
}

/** A section's `range`: `{start, end}`, UTF-8 byte offsets into the text. */
function parseRange(raw: unknown): [number, number] {
  return isObject(raw) ? [num(raw.start), num(raw.end)] : [0, 0];
}

/** A source: `{path, lines}`, `lines` being `{start, end}` (1-based, inclusive) or null when only
 * the file's path or existence mattered. */
function parseSource(raw: unknown): PreviewSource | undefined {
  if (!isObject(raw) || typeof raw.path !== 'string' || raw.path === '') {
    return undefined;
  }
  const lines = isObject(raw.lines) ? raw.lines : {};
  const start = num(lines.start, 1);
  return { path: raw.path, startLine: start, endLine: num(lines.end, start) };
}

/**
 * The sources read from each list of an answer, by the list. An answer taken as edits keeps the
 * lists no edit touched ({@link applyPreviewEdits} copies what it changes), and a large
 * workspace's skills section lists ten thousand: they are not read again after every edit.
 */
const sourcesRead = new WeakMap<unknown[], PreviewSource[]>();

function readSources(raw: unknown): PreviewSource[] {
  if (!Array.isArray(raw)) {
    return [];
  }
  let read = sourcesRead.get(raw);
  if (read === undefined) {
    read = raw.map(parseSource).filter((s): s is PreviewSource => s !== undefined);
    sourcesRead.set(raw, read);
  }
  return read;
}

/** A note: `{code, message, rule?, path?}`; the model keeps its message. */
function parseNote(raw: unknown): string | undefined {
  if (isObject(raw) && typeof raw.message === 'string' && raw.message !== '') {
    return raw.message;
  }
  return undefined;
}

/**
 * Turns the server's preview JSON (`agentws/previewPrompt`, the shape `agentws preview --format
 * json` prints; `PreviewPromptResult` in server/src/lsp/protocol.rs) into the model the views
 * render. It reads exactly the field names the server sends; a missing or mistyped field falls
 * back to an empty value instead of throwing: a preview with a missing piece is still worth
 * showing.
 */
export function toPreviewModel(raw: unknown): PreviewModel {
  if (!isObject(raw)) {
    throw new Error('agentws/previewPrompt returned no object');
  }
  const text = str(raw.text);
  const sections: PreviewSection[] = [];
  const rawSections = raw.sections;
  // Sections come in text order: each cut counts on from where the one before ended.
  let counted: Place = { index: 0, byte: 0 };
  if (Array.isArray(rawSections)) {
    for (const item of rawSections) {
      if (!isObject(item)) {
        continue;
      }
      const [start, end] = parseRange(item.range);
      const cut = cutByBytes(text, start, end, start >= counted.byte ? counted : undefined);
      counted = cut.end;
      sections.push({
        title: str(item.label, 'section'),
        kind: str(item.kind, ''),
        start,
        end,
        body: cut.text,
        sources: readSources(item.sources),
        tokens: num(item.estimatedTokens),
      });
    }
  }
  const rawBudget = raw.budget;
  const budget: PreviewBudget = isObject(rawBudget)
    ? {
        max: num(rawBudget.maxContextTokens),
        used: num(rawBudget.usedTokens),
        memoryTruncated: rawBudget.truncated === true,
      }
    : { max: 0, used: 0, memoryTruncated: false };
  const rawNotes = raw.notes;
  const notes = Array.isArray(rawNotes)
    ? rawNotes.map(parseNote).filter((n): n is string => n !== undefined)
    : [];
  return { text, sections, budget, notes };
}
