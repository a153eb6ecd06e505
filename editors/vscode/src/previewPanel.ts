// The "Preview System Prompt" webview and the "Compare with…" diff. Asks the server for
// agentws/previewPrompt and renders it; re-asks (debounced) whenever a workspace file changes,
// saved or not, because the server sees the unsaved buffers through the document sync.

import * as crypto from 'crypto';
import * as vscode from 'vscode';
import { contextFileName, contextLabel, debounce } from './context';
import { isServerFile, resolveSourcePath } from './files';
import { previewUpdate, renderPreviewHtml } from './previewHtml';
import {
  HeldPreview,
  isStoredLocation,
  Methods,
  PreviewContext,
  PreviewModel,
  PreviewParams,
  storeDocumentUri,
  takePreviewAnswer,
  toPreviewModel,
} from './protocol';

export const PREVIEW_VIEW_TYPE = 'agentws.preview';
export const PROMPT_SCHEME = 'agentws-prompt';

/** What the panel needs from the language client; a seam for the tests. */
export interface PreviewRequester {
  sendRequest(method: string, params: unknown): Promise<unknown>;
}

/**
 * The preview for `context`. With `held`, the answer comes as the edits of the one `held` holds
 * (megabytes fewer for a large workspace) and `held` then holds the new one; an answer whose edits
 * do not apply is asked again whole.
 */
export async function requestPreview(
  client: PreviewRequester,
  uri: vscode.Uri | undefined,
  context: PreviewContext,
  held?: HeldPreview,
): Promise<PreviewModel> {
  const params: PreviewParams = { context };
  if (uri !== undefined) {
    params.uri = uri.toString();
  }
  if (held === undefined) {
    return toPreviewModel(await client.sendRequest(Methods.previewPrompt, params));
  }
  params.previousResultId = held.resultId;
  const result = await client.sendRequest(Methods.previewPrompt, params);
  try {
    return toPreviewModel(takePreviewAnswer(held, result));
  } catch {
    params.previousResultId = null;
    return toPreviewModel(takePreviewAnswer(held, await client.sendRequest(Methods.previewPrompt, params)));
  }
}

export class PreviewPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly refresher: { trigger: () => void; cancel: () => void };
  private generation = 0;
  /** The last answer, which the next one edits; requests go one at a time so edits apply in order. */
  private readonly held: HeldPreview = { resultId: null, answer: undefined };
  private inFlight: Promise<unknown> = Promise.resolve();
  private disposed = false;
  /**
   * The preview the page shows, while it shows one (not an error): the next preview is sent as a
   * {@link previewUpdate} of it.
   */
  private shown?: PreviewModel;
  /** The page's version, never repeated, so that no update can apply to a page it was not made for. */
  private version = 0;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly getClient: () => PreviewRequester | undefined,
    public context: PreviewContext,
    private readonly folder: vscode.Uri | undefined,
    debounceMs: number,
    private readonly onCompare: (panel: PreviewPanel) => void,
    onDisposed: () => void,
  ) {
    this.refresher = debounce(() => void this.refresh(), debounceMs);
    this.disposables.push(
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (isServerFile(event.document.uri.fsPath)) {
          this.refresher.trigger();
        }
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (isServerFile(doc.uri.fsPath)) {
          this.refresher.trigger();
        }
      }),
      panel.webview.onDidReceiveMessage((message) => this.onMessage(message)),
      panel.onDidDispose(() => {
        this.dispose();
        onDisposed();
      }),
    );
    const watcher = vscode.workspace.createFileSystemWatcher('**/.agentscope/workspace/**');
    this.disposables.push(
      watcher,
      watcher.onDidCreate(() => this.refresher.trigger()),
      watcher.onDidDelete(() => this.refresher.trigger()),
      watcher.onDidChange(() => this.refresher.trigger()),
    );
  }

  setContext(context: PreviewContext): void {
    this.context = context;
    this.panel.title = `Prompt: ${contextLabel(context)}`;
  }

  scheduleRefresh(): void {
    this.refresher.trigger();
  }

  async refresh(): Promise<void> {
    const client = this.getClient();
    const generation = ++this.generation;
    if (client === undefined) {
      this.showError('The agentws server is not running. Run "agentws: Restart Server".');
      return;
    }
    try {
      const context = this.context;
      const asked = this.inFlight.then(() => requestPreview(client, this.folder, context, this.held));
      this.inFlight = asked.catch(() => undefined);
      const model = await asked;
      // A slower answer for an older edit must not overwrite a newer one.
      if (generation !== this.generation || this.disposed) {
        return;
      }
      if (this.shown !== undefined) {
        const from = this.version;
        const update = previewUpdate(this.shown, model, contextLabel(this.context), from, ++this.version);
        if (await this.panel.webview.postMessage(update)) {
          this.shown = model;
          return;
        }
      }
      this.renderWhole(model);
    } catch (error) {
      if (generation === this.generation && !this.disposed) {
        this.showError(error instanceof Error ? error.message : String(error));
      }
    }
  }

  /** The whole page for `model`; later models are sent to it as updates. */
  private renderWhole(model: PreviewModel): void {
    this.panel.webview.html = renderPreviewHtml(model, {
      contextLabel: contextLabel(this.context),
      nonce: crypto.randomBytes(16).toString('base64'),
      cspSource: this.panel.webview.cspSource,
      version: ++this.version,
    });
    this.shown = model;
  }

  private showError(message: string): void {
    this.shown = undefined;
    const escaped = message.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    this.panel.webview.html = `<!DOCTYPE html><html><body><h3>agentws preview failed</h3><pre>${escaped}</pre></body></html>`;
  }

  private async onMessage(message: unknown): Promise<void> {
    if (typeof message !== 'object' || message === null) {
      return;
    }
    const m = message as { type?: string; path?: string; line?: number };
    if (m.type === 'stale' && this.shown !== undefined) {
      // The page missed an update (or was loaded again): give it the whole page.
      this.renderWhole(this.shown);
      return;
    }
    if (m.type === 'compare') {
      this.onCompare(this);
      return;
    }
    if (m.type === 'open' && typeof m.path === 'string') {
      // A file read from the store opens as its read-only document (served by the extension).
      const file = isStoredLocation(m.path)
        ? vscode.Uri.parse(storeDocumentUri(m.path))
        : vscode.Uri.file(resolveSourcePath(m.path, this.folder?.fsPath));
      const line = Math.max(0, (typeof m.line === 'number' ? m.line : 1) - 1);
      await vscode.window.showTextDocument(file, {
        viewColumn: vscode.ViewColumn.One,
        selection: new vscode.Range(line, 0, line, 0),
      });
    }
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    this.refresher.cancel();
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}

/** Read-only virtual documents holding rendered prompts, for VS Code's diff view. */
export class PromptDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private counter = 0;

  put(context: PreviewContext, text: string): vscode.Uri {
    return this.putNamed(contextFileName(context), text);
  }

  /** The query makes every put a new document, so an older diff tab keeps its own text. */
  putNamed(fileName: string, text: string): vscode.Uri {
    this.counter += 1;
    const uri = vscode.Uri.parse(`${PROMPT_SCHEME}:/${encodeURIComponent(fileName)}?${this.counter}`);
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}

export async function showComparison(
  client: PreviewRequester,
  documents: PromptDocuments,
  folder: vscode.Uri | undefined,
  left: PreviewContext,
  right: PreviewContext,
): Promise<void> {
  const [a, b] = await Promise.all([
    requestPreview(client, folder, left),
    requestPreview(client, folder, right),
  ]);
  await vscode.commands.executeCommand(
    'vscode.diff',
    documents.put(left, a.text),
    documents.put(right, b.text),
    `Prompt: ${contextLabel(left)} ↔ ${contextLabel(right)}`,
  );
}
