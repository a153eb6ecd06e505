// Entry point of the VS Code extension: starts `agentws serve` through vscode-languageclient and
// wires the commands (preview, compare, explain, check the store, restart), the read-only documents
// of the store's files and the status bar item.

import * as cp from 'child_process';
import * as fs from 'fs';
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  TransportKind,
} from 'vscode-languageclient/node';
import { findBinary } from './binary';
import {
  ContextDefaults,
  contextLabel,
  idPickItems,
  initialContext,
  parseContextInput,
  rememberContext,
  shortContextLabel,
} from './context';
import { SERVER_FILE_PATTERNS } from './files';
import { PromptDocuments, PreviewPanel, PROMPT_SCHEME, PREVIEW_VIEW_TYPE, showComparison } from './previewPanel';
import {
  Methods,
  PreviewContext,
  STORE_SCHEME,
  StoreUsers,
  StoreUsersParams,
  toStoreChecks,
  toStoreDocument,
  toStoreUsers,
} from './protocol';
import { agentwsCode, explainCommandUri, ruleLinksSetting } from './ruleLinks';

export const Commands = {
  preview: 'agentws.previewPrompt',
  compare: 'agentws.compareWith',
  explainRule: 'agentws.explainRule',
  restart: 'agentws.restartServer',
  checkStore: 'agentws.checkStore',
} as const;

function isExecutable(file: string): boolean {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) {
      return false;
    }
    if (process.platform !== 'win32') {
      fs.accessSync(file, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

function firstFolder(): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.[0];
}

/** The folder a preview is made for: the active editor's workspace folder, else the first one. */
function previewFolder(): vscode.Uri | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  const folder = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  return (folder ?? firstFolder())?.uri;
}

export class Extension implements vscode.Disposable {
  client: LanguageClient | undefined;
  binaryPath: string | undefined;
  readonly status: vscode.StatusBarItem;
  readonly output: vscode.OutputChannel;
  readonly documents = new PromptDocuments();
  private panel: PreviewPanel | undefined;
  private activeContext: PreviewContext;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly ext: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('agentws');
    this.status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
    this.status.command = Commands.preview;
    this.activeContext = initialContext(ext.workspaceState, this.defaults());
    this.disposables.push(
      this.output,
      this.status,
      vscode.workspace.registerTextDocumentContentProvider(PROMPT_SCHEME, this.documents),
      vscode.commands.registerCommand(Commands.preview, (user?: string, session?: string) =>
        this.previewPrompt(user, session),
      ),
      vscode.commands.registerCommand(Commands.compare, () => this.compareWith()),
      vscode.commands.registerCommand(Commands.explainRule, (code?: string) => this.explainRule(code)),
      vscode.commands.registerCommand(Commands.restart, () => this.restart()),
      vscode.commands.registerCommand(Commands.checkStore, () => this.checkStore()),
      // The store's files (diagnostics name them `agentws-store:…`), read-only, as the server has them.
      vscode.workspace.registerTextDocumentContentProvider(STORE_SCHEME, {
        provideTextDocumentContent: (uri) => this.storeDocument(uri),
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('agentws.path') || event.affectsConfiguration('agentws.profile')) {
          void this.restart();
        }
      }),
    );
    this.status.show();
  }

  private config(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration('agentws');
  }

  defaults(): ContextDefaults {
    const config = this.config();
    return {
      userId: config.get<string>('preview.userId', ''),
      sessionId: config.get<string>('preview.sessionId', ''),
      harness: config.get<string>('preview.harness', ''),
    };
  }

  private setStatus(state: 'starting' | 'running' | 'stopped' | 'missing', detail = ''): void {
    const icon = { starting: '$(sync~spin)', running: '$(check)', stopped: '$(error)', missing: '$(warning)' }[state];
    const context = shortContextLabel(this.activeContext);
    this.status.text = state === 'running' ? `${icon} agentws ${context}` : `${icon} agentws`;
    this.status.tooltip =
      `agentws server: ${state}${detail ? ` (${detail})` : ''}\n` +
      `Preview context: ${contextLabel(this.activeContext)}\nClick to preview the system prompt.`;
  }

  async start(): Promise<void> {
    const found = findBinary({
      settingPath: this.config().get<string>('path', ''),
      workspaceFolder: firstFolder()?.uri.fsPath,
      extensionPath: this.ext.extensionPath,
      envPath: process.env.PATH,
      platform: process.platform,
      isExecutable,
    });
    if (!found.ok) {
      this.binaryPath = undefined;
      this.setStatus('missing', 'binary not found');
      this.output.appendLine(found.message);
      const choice = await vscode.window.showErrorMessage(found.message, 'Open Settings');
      if (choice === 'Open Settings') {
        await vscode.commands.executeCommand('workbench.action.openSettings', 'agentws.path');
      }
      return;
    }
    this.binaryPath = found.path;
    this.output.appendLine(`agentws: using ${found.path} (from ${found.source})`);
    const serverOptions: ServerOptions = {
      command: found.path,
      args: ['serve'],
      transport: TransportKind.stdio,
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: SERVER_FILE_PATTERNS.map((pattern) => ({ scheme: 'file', pattern })),
      initializationOptions: { profile: this.config().get<string>('profile', 'harness') },
      outputChannel: this.output,
      diagnosticCollectionName: 'agentws',
      // Answers the server's workspace/configuration requests for "agentws" and tells it when
      // those settings change (e.g. agentws.debounceMs).
      synchronize: { configurationSection: 'agentws' },
      // Rule codes link to Explain Rule (pushed and pulled diagnostics alike), see ruleLinks.ts.
      middleware: {
        handleDiagnostics: (uri, diagnostics, next) => next(uri, this.linkRules(diagnostics)),
        provideDiagnostics: async (document, previousResultId, token, next) => {
          const report = await next(document, previousResultId, token);
          if (report && 'items' in report) {
            report.items = this.linkRules(report.items);
          }
          return report;
        },
      },
    };
    const client = new LanguageClient('agentws', 'agentws', serverOptions, clientOptions);
    this.client = client;
    client.onDidChangeState((event) => {
      if (event.newState === State.Running) {
        this.setStatus('running', found.path);
      } else if (event.newState === State.Starting) {
        this.setStatus('starting');
      } else {
        this.setStatus('stopped');
      }
    });
    this.setStatus('starting');
    try {
      await client.start();
      this.setStatus('running', found.path);
    } catch (error) {
      this.setStatus('stopped', String(error));
      void vscode.window.showErrorMessage(`agentws: the server did not start: ${String(error)}`);
    }
  }

  /** Points the rule code of each agentws diagnostic at Explain Rule, unless `agentws.ruleLinks` is `web`. */
  linkRules(diagnostics: vscode.Diagnostic[]): vscode.Diagnostic[] {
    if (ruleLinksSetting(this.config().get('ruleLinks')) === 'web') {
      return diagnostics;
    }
    for (const diagnostic of diagnostics) {
      const code = agentwsCode(diagnostic);
      if (code !== undefined) {
        diagnostic.code = { value: code, target: vscode.Uri.parse(explainCommandUri(Commands.explainRule, code)) };
      }
    }
    return diagnostics;
  }

  async restart(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    if (old !== undefined) {
      try {
        await old.stop();
      } catch (error) {
        this.output.appendLine(`agentws: stopping the old server failed: ${String(error)}`);
      }
    }
    await this.start();
    if (this.panel !== undefined) {
      this.panel.scheduleRefresh();
    }
  }

  /** The text of a stored file (`agentws/storeDocument`). */
  async storeDocument(uri: vscode.Uri): Promise<string> {
    const client = this.client;
    if (client === undefined) {
      throw new Error('agentws: the server is not running');
    }
    return toStoreDocument(await client.sendRequest(Methods.storeDocument, { uri: uri.toString() })).text;
  }

  /** Reads the store's files again (`agentws/checkStore`) and says what was read. */
  async checkStore(): Promise<void> {
    const client = this.client;
    if (client === undefined) {
      void vscode.window.showErrorMessage('agentws: the server is not running');
      return;
    }
    try {
      const checks = toStoreChecks(await client.sendRequest(Methods.checkStore, {}));
      if (checks.length === 0) {
        void vscode.window.showInformationMessage('agentws: no project configures a [store] in agentws.toml');
      }
      for (const c of checks) {
        const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
        void vscode.window.showInformationMessage(
          `agentws: ${plural(c.files, 'file', 'files')} of ${plural(c.owners, 'owner', 'owners')} read from ${c.store}: ` +
            `${plural(c.diagnostics, 'problem', 'problems')}`,
        );
      }
    } catch (error) {
      void vscode.window.showErrorMessage(`agentws: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The ids the project's store holds (`agentws/storeUsers`); undefined when none can be offered. */
  private async storeIds(scope: PreviewContext['scope']): Promise<StoreUsers | undefined> {
    const client = this.client;
    if (client === undefined) {
      return undefined;
    }
    const params: StoreUsersParams = {};
    const folder = previewFolder();
    if (folder !== undefined) {
      params.uri = folder.toString();
    }
    if (scope !== undefined) {
      params.scope = scope;
    }
    try {
      return toStoreUsers(await client.sendRequest(Methods.storeUsers, params));
    } catch (error) {
      // An older server, or a store that cannot be read: the ids are typed instead.
      this.output.appendLine(`agentws: the store's ids are not offered: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** A stored id picked from `ids` (or typed, when there are none or the user wants another). */
  private async askId(
    title: string,
    kind: 'user' | 'session',
    ids: string[],
    current: string | undefined,
    prompt: string,
  ): Promise<string | undefined> {
    if (ids.length > 0) {
      const picked = await vscode.window.showQuickPick(idPickItems(ids, current, kind), {
        title,
        placeHolder: `${kind === 'user' ? 'User' : 'Session'} id: one the store holds, or type another`,
      });
      if (picked === undefined) {
        return undefined;
      }
      if (picked.id !== undefined) {
        return picked.id;
      }
    }
    return vscode.window.showInputBox({ title, prompt, value: current ?? '' });
  }

  private async askContext(base: PreviewContext, title: string): Promise<PreviewContext | undefined> {
    const stored = await this.storeIds(base.scope);
    const storedIn = (kind: 'user' | 'session') =>
      stored !== undefined && (stored.scope === 'session') === (kind === 'session') ? stored.ids : [];
    const userId = await this.askId(
      title,
      'user',
      storedIn('user'),
      base.userId,
      'User id (empty: no user, as a call without a user id)',
    );
    if (userId === undefined) {
      return undefined;
    }
    const sessionId = await this.askId(
      title,
      'session',
      storedIn('session'),
      base.sessionId,
      'Session id (empty: the runtime default, the agent name)',
    );
    if (sessionId === undefined) {
      return undefined;
    }
    return parseContextInput('', { ...base, userId, sessionId });
  }

  async previewPrompt(user?: string, session?: string): Promise<void> {
    let context: PreviewContext | undefined;
    if (user !== undefined || session !== undefined) {
      context = parseContextInput('', { ...this.activeContext, userId: user, sessionId: session });
    } else {
      context = await this.askContext(initialContext(this.ext.workspaceState, this.defaults()), 'agentws: Preview System Prompt');
    }
    if (context === undefined) {
      return;
    }
    await rememberContext(this.ext.workspaceState, context);
    this.activeContext = context;
    this.setStatus(this.client ? 'running' : 'stopped', this.binaryPath);
    if (this.panel === undefined) {
      const webview = vscode.window.createWebviewPanel(
        PREVIEW_VIEW_TYPE,
        'Prompt',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, retainContextWhenHidden: true },
      );
      this.panel = new PreviewPanel(
        webview,
        () => this.client,
        context,
        previewFolder(),
        this.config().get<number>('preview.debounceMs', 300),
        () => void this.compareWith(),
        () => {
          this.panel = undefined;
        },
      );
    } else {
      this.panel.panel.reveal(vscode.ViewColumn.Beside, true);
    }
    this.panel.setContext(context);
    await this.panel.refresh();
  }

  async compareWith(): Promise<void> {
    const client = this.client;
    if (client === undefined) {
      void vscode.window.showErrorMessage('agentws: the server is not running. Run "agentws: Restart Server".');
      return;
    }
    const left = this.panel?.context ?? this.activeContext;
    const input = await vscode.window.showInputBox({
      title: `Compare ${contextLabel(left)} with…`,
      prompt: 'Other context: "USER [SESSION [HARNESS]]" or key=value pairs (user=, session=, harness=2.0.2, scope=, fs=)',
      placeHolder: 'bob s1   or   harness=2.0.2',
    });
    if (input === undefined || input.trim() === '') {
      return;
    }
    let right: PreviewContext;
    try {
      right = parseContextInput(input, left);
    } catch (error) {
      void vscode.window.showErrorMessage(`agentws: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    try {
      await showComparison(client, this.documents, previewFolder(), left, right);
    } catch (error) {
      void vscode.window.showErrorMessage(`agentws: preview failed: ${String(error)}`);
    }
  }

  /** Rule codes of agentws diagnostics under the cursor, so Explain Rule needs no typing. */
  private codesAtCursor(): string[] {
    const editor = vscode.window.activeTextEditor;
    if (editor === undefined) {
      return [];
    }
    const codes = new Set<string>();
    for (const diagnostic of vscode.languages.getDiagnostics(editor.document.uri)) {
      if (!diagnostic.range.contains(editor.selection.active)) {
        continue;
      }
      const code = agentwsCode(diagnostic);
      if (code !== undefined) {
        codes.add(code);
      }
    }
    return [...codes];
  }

  async explainRule(code?: string): Promise<void> {
    let rule = code;
    if (rule === undefined) {
      const codes = this.codesAtCursor();
      rule =
        codes.length === 1
          ? codes[0]
          : codes.length > 1
            ? await vscode.window.showQuickPick(codes, { title: 'agentws: Explain Rule' })
            : await vscode.window.showInputBox({ title: 'agentws: Explain Rule', prompt: 'Rule code, e.g. SK001' });
    }
    if (rule === undefined || rule.trim() === '') {
      return;
    }
    if (this.binaryPath === undefined) {
      void vscode.window.showErrorMessage('agentws: no agentws binary found; set "agentws.path".');
      return;
    }
    const text = await new Promise<string>((resolve) => {
      cp.execFile(this.binaryPath as string, ['explain', rule.trim()], { timeout: 10000 }, (error, stdout, stderr) => {
        resolve(error && stdout === '' ? `agentws explain ${rule}: ${stderr || String(error)}` : stdout);
      });
    });
    const uri = this.documents.putNamed(`${rule.trim()}.md`, text);
    await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}

let instance: Extension | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<Extension> {
  instance = new Extension(context);
  context.subscriptions.push(instance);
  await instance.start();
  return instance;
}

export async function deactivate(): Promise<void> {
  const client = instance?.client;
  instance = undefined;
  if (client !== undefined) {
    await client.stop();
  }
}
