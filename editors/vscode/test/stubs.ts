// A stub of the `vscode` module and of `vscode-languageclient/node`, installed by redirecting
// `require`, so the extension's own logic runs under plain Node. Only the API the extension uses
// is here; every call the tests care about is recorded in `recorded`.

import Module = require('module');
import * as path from 'path';

type Listener<T> = (value: T) => unknown;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  event = (listener: Listener<T>) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(value: T): void {
    for (const l of [...this.listeners]) {
      l(value);
    }
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly fsPath: string,
    readonly query: string,
  ) {}
  static file(p: string): Uri {
    return new Uri('file', p, '');
  }
  static parse(value: string): Uri {
    const colon = value.indexOf(':');
    const scheme = value.slice(0, colon);
    const rest = value.slice(colon + 1);
    const q = rest.indexOf('?');
    return new Uri(scheme, q >= 0 ? rest.slice(0, q) : rest, q >= 0 ? rest.slice(q + 1) : '');
  }
  get path(): string {
    return this.fsPath;
  }
  toString(): string {
    const base = this.scheme === 'file' ? `file://${this.fsPath}` : `${this.scheme}:${this.fsPath}`;
    return this.query ? `${base}?${this.query}` : base;
  }
}

export class Range {
  constructor(
    readonly startLine: number,
    readonly startCharacter: number,
    readonly endLine: number,
    readonly endCharacter: number,
  ) {}
  contains(pos: { line: number; character: number }): boolean {
    return pos.line >= this.startLine && pos.line <= this.endLine;
  }
}

export interface FakeWebview {
  html: string;
  posted: unknown[];
  postMessage: (message: unknown) => Promise<boolean>;
  cspSource: string;
  messages: EventEmitter<unknown>;
  onDidReceiveMessage: EventEmitter<unknown>['event'];
}

export interface FakePanel {
  viewType: string;
  title: string;
  webview: FakeWebview;
  disposeEmitter: EventEmitter<void>;
  onDidDispose: EventEmitter<void>['event'];
  reveal: () => void;
  dispose: () => void;
}

export const recorded = {
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  executed: [] as { command: string; args: unknown[] }[],
  errors: [] as string[],
  inputAnswers: [] as (string | undefined)[],
  inputPrompts: [] as { title?: string; value?: string }[],
  /** Labels to pick, in order (undefined: dismissed); when empty the first item is picked. */
  quickPickAnswers: [] as (string | undefined)[],
  quickPicks: [] as { items: unknown[]; options: unknown }[],
  panels: [] as FakePanel[],
  shownDocuments: [] as { uri: Uri; options: unknown }[],
  configuration: {} as Record<string, unknown>,
  workspaceFolders: [] as { uri: Uri; name: string; index: number }[],
  statusBar: { text: '', tooltip: '' as unknown, command: '' as unknown, visible: false },
  contentProviders: new Map<string, { provideTextDocumentContent(uri: Uri): string }>(),
  textChange: new EventEmitter<{ document: { uri: Uri } }>(),
  clients: [] as FakeLanguageClient[],
  /** Answer of the fake client's sendRequest, per method. */
  requestHandler: (_method: string, _params: unknown): unknown => {
    throw new Error('no request handler');
  },
};

export function resetRecorded(): void {
  recorded.commands.clear();
  recorded.executed = [];
  recorded.errors = [];
  recorded.inputAnswers = [];
  recorded.inputPrompts = [];
  recorded.quickPickAnswers = [];
  recorded.quickPicks = [];
  recorded.panels = [];
  recorded.shownDocuments = [];
  recorded.configuration = {};
  recorded.workspaceFolders = [];
  recorded.contentProviders.clear();
  recorded.clients = [];
}

const disposable = { dispose: () => undefined };

export const vscodeStub = {
  EventEmitter,
  Uri,
  Range,
  StatusBarAlignment: { Left: 1, Right: 2 },
  ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
  Disposable: class {
    constructor(private readonly fn: () => void) {}
    dispose() {
      this.fn();
    }
  },
  window: {
    activeTextEditor: undefined as unknown,
    createOutputChannel: (_name: string) => ({
      lines: [] as string[],
      appendLine(line: string) {
        this.lines.push(line);
      },
      append() {},
      show() {},
      dispose() {},
    }),
    createStatusBarItem: () => {
      const item = recorded.statusBar;
      return Object.assign(item, {
        show: () => (item.visible = true),
        hide: () => (item.visible = false),
        dispose: () => undefined,
      });
    },
    showErrorMessage: async (message: string) => {
      recorded.errors.push(message);
      return undefined;
    },
    showInputBox: async (options: { title?: string; value?: string }) => {
      recorded.inputPrompts.push(options);
      return recorded.inputAnswers.shift();
    },
    showQuickPick: async (items: unknown[], options?: unknown) => {
      recorded.quickPicks.push({ items, options });
      if (recorded.quickPickAnswers.length === 0) {
        return items[0];
      }
      const answer = recorded.quickPickAnswers.shift();
      return items.find((item) => (typeof item === 'string' ? item : (item as { label: string }).label) === answer);
    },
    showTextDocument: async (uri: Uri, options: unknown) => {
      recorded.shownDocuments.push({ uri, options });
      return {};
    },
    createWebviewPanel: (viewType: string, title: string) => {
      const messages = new EventEmitter<unknown>();
      const disposeEmitter = new EventEmitter<void>();
      const panel: FakePanel = {
        viewType,
        title,
        webview: {
          html: '',
          posted: [] as unknown[],
          postMessage(message: unknown) {
            this.posted.push(message);
            return Promise.resolve(true);
          },
          cspSource: 'vscode-webview:',
          messages,
          onDidReceiveMessage: messages.event,
        },
        disposeEmitter,
        onDidDispose: disposeEmitter.event,
        reveal: () => undefined,
        dispose: () => disposeEmitter.fire(),
      };
      recorded.panels.push(panel);
      return panel;
    },
  },
  workspace: {
    get workspaceFolders() {
      return recorded.workspaceFolders;
    },
    getWorkspaceFolder: (_uri: Uri) => recorded.workspaceFolders[0],
    getConfiguration: (section: string) => ({
      get: <T>(key: string, fallback?: T): T => {
        const full = `${section}.${key}`;
        return (full in recorded.configuration ? recorded.configuration[full] : fallback) as T;
      },
    }),
    onDidChangeConfiguration: () => disposable,
    onDidChangeTextDocument: (listener: Listener<{ document: { uri: Uri } }>) =>
      recorded.textChange.event(listener),
    onDidSaveTextDocument: () => disposable,
    createFileSystemWatcher: () => ({
      onDidCreate: () => disposable,
      onDidDelete: () => disposable,
      onDidChange: () => disposable,
      dispose: () => undefined,
    }),
    registerTextDocumentContentProvider: (
      scheme: string,
      provider: { provideTextDocumentContent(uri: Uri): string },
    ) => {
      recorded.contentProviders.set(scheme, provider);
      return disposable;
    },
  },
  commands: {
    registerCommand: (id: string, fn: (...args: unknown[]) => unknown) => {
      recorded.commands.set(id, fn);
      return disposable;
    },
    executeCommand: async (command: string, ...args: unknown[]) => {
      recorded.executed.push({ command, args });
      return undefined;
    },
  },
  languages: {
    getDiagnostics: () => [],
  },
};

export class FakeLanguageClient {
  readonly stateEmitter = new EventEmitter<{ oldState: number; newState: number }>();
  onDidChangeState = this.stateEmitter.event;
  started = false;
  stopped = false;
  constructor(
    readonly id: string,
    readonly name: string,
    readonly serverOptions: { command: string; args: string[] },
    readonly clientOptions: {
      documentSelector: { scheme: string; pattern: string }[];
      initializationOptions: unknown;
    },
  ) {
    recorded.clients.push(this);
  }
  async start(): Promise<void> {
    this.started = true;
    this.stateEmitter.fire({ oldState: 1, newState: 2 });
  }
  async stop(): Promise<void> {
    this.stopped = true;
    this.stateEmitter.fire({ oldState: 2, newState: 1 });
  }
  async sendRequest(method: string, params: unknown): Promise<unknown> {
    return recorded.requestHandler(method, params);
  }
}

const languageClientStub = {
  LanguageClient: FakeLanguageClient,
  State: { Stopped: 1, Running: 2, Starting: 3 },
  TransportKind: { stdio: 0, ipc: 1, pipe: 2, socket: 3 },
};

const stubFiles: Record<string, unknown> = {
  vscode: vscodeStub,
  'vscode-languageclient/node': languageClientStub,
};

// Redirect `require('vscode')` and the language client to the objects above.
const moduleWithInternals = Module as unknown as {
  _load: (request: string, parent: unknown, isMain: boolean) => unknown;
};
const originalLoad = moduleWithInternals._load;
moduleWithInternals._load = function (request: string, parent: unknown, isMain: boolean) {
  if (request in stubFiles) {
    return stubFiles[request];
  }
  return originalLoad.call(this, request, parent, isMain);
};

export const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
export const extensionRoot = path.resolve(__dirname, '..', '..');
