// The extension's activation, commands and preview panel, against the stubbed `vscode` module and
// a fake language client (test/stubs.ts). The stub must be loaded before the extension.

import { recorded, resetRecorded, Uri, vscodeStub, extensionRoot, repoRoot } from './stubs';
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, beforeEach, test } from 'node:test';
import { activate, Commands, Extension } from '../src/extension';
import { PreviewUpdate } from '../src/previewHtml';
import { PROMPT_SCHEME } from '../src/previewPanel';
import { Methods } from '../src/protocol';

const manifest = JSON.parse(fs.readFileSync(path.join(extensionRoot, 'package.json'), 'utf8'));
const fixture = JSON.parse(fs.readFileSync(path.join(extensionRoot, 'test', 'fixtures', 'preview.json'), 'utf8'));
const project = path.join(repoRoot, 'tests', 'fixtures', 'editors-basic');

// One fake binary for the whole file, removed when the tests end, so runs leave no folders behind.
const fakeBinaryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentws-ext-'));
after(() => fs.rmSync(fakeBinaryDir, { recursive: true, force: true }));

function fakeBinary(): string {
  const file = path.join(fakeBinaryDir, 'agentws');
  if (!fs.existsSync(file)) {
    fs.writeFileSync(file, '#!/bin/sh\necho "explained: $*"\n');
    fs.chmodSync(file, 0o755);
  }
  return file;
}

function extensionContext() {
  const values = new Map<string, unknown>();
  return {
    subscriptions: [] as { dispose(): void }[],
    extensionPath: '/nonexistent-extension',
    workspaceState: {
      get: <T>(key: string) => values.get(key) as T | undefined,
      update: async (key: string, value: unknown) => void values.set(key, value),
    },
  };
}

async function activated(config: Record<string, unknown> = {}): Promise<Extension> {
  recorded.configuration = { 'agentws.path': fakeBinary(), ...config };
  recorded.workspaceFolders = [{ uri: Uri.file(project), name: 'editors-basic', index: 0 }];
  return activate(extensionContext() as never);
}

const tick = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(() => {
  resetRecorded();
  vscodeStub.window.activeTextEditor = undefined;
});

test('every contributed command is registered, and nothing else', async () => {
  const ext = await activated();
  const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
  assert.deepEqual([...recorded.commands.keys()].sort(), contributed);
  assert.deepEqual(Object.values(Commands).sort(), contributed);
  ext.dispose();
});

test('every setting the code reads is contributed in package.json', () => {
  const source = ['extension.ts', 'previewPanel.ts']
    .map((f) => fs.readFileSync(path.join(extensionRoot, 'src', f), 'utf8'))
    .join('\n');
  const read = new Set<string>();
  for (const m of source.matchAll(/get<\w+>\('([\w.]+)'/g)) {
    read.add(`agentws.${m[1]}`);
  }
  const contributed = Object.keys(manifest.contributes.configuration.properties);
  assert.ok(read.size >= 6, `found only ${[...read]}`);
  for (const key of read) {
    assert.ok(contributed.includes(key), `${key} is read but not contributed`);
  }
  assert.ok(contributed.includes('agentws.trace.server'), 'vscode-languageclient reads <id>.trace.server');
});

test('the server is started with `serve`, the selectors and the rule profile', async () => {
  const ext = await activated({ 'agentws.profile': 'strict' });
  assert.equal(recorded.clients.length, 1);
  const client = recorded.clients[0];
  assert.equal(client.id, 'agentws', 'the id makes vscode-languageclient read agentws.trace.server');
  assert.equal(client.serverOptions.command, recorded.configuration['agentws.path']);
  assert.deepEqual(client.serverOptions.args, ['serve']);
  assert.deepEqual(
    client.clientOptions.documentSelector.map((s) => s.pattern),
    ['**/SKILL.md', '**/subagents/*.md', '**/tools.json', '**/AGENTS.md', '**/agentws.toml', '**/.agentscope/workspace/**'],
  );
  assert.ok(client.clientOptions.documentSelector.every((s) => s.scheme === 'file'));
  assert.deepEqual(client.clientOptions.initializationOptions, { profile: 'strict' });
  assert.equal(client.started, true);
  assert.match(recorded.statusBar.text, /^\$\(check\) agentws /);
  assert.equal(recorded.statusBar.command, Commands.preview);
  ext.dispose();
});

test('a missing binary gives one error with the fix, and no client', async () => {
  recorded.configuration = { 'agentws.path': '/definitely/not/agentws' };
  const ext = await activate(extensionContext() as never);
  assert.equal(recorded.clients.length, 0);
  assert.equal(recorded.errors.length, 1);
  assert.match(recorded.errors[0], /"agentws\.path" names \/definitely\/not\/agentws/);
  assert.match(recorded.statusBar.text, /\$\(warning\) agentws/);
  ext.dispose();
});

test('Preview System Prompt asks user and session, remembers them, and renders the panel', async () => {
  const ext = await activated({ 'agentws.preview.userId': 'carol', 'agentws.preview.debounceMs': 1 });
  const requests: unknown[] = [];
  recorded.requestHandler = (method, params) => {
    if (method === Methods.storeUsers) {
      // No store configured: nothing to pick from, the ids are typed.
      return { store: null, scope: 'user', ids: [] };
    }
    assert.equal(method, Methods.previewPrompt);
    requests.push(params);
    return fixture;
  };
  recorded.inputAnswers = ['alice', 's1'];
  await recorded.commands.get(Commands.preview)!();
  assert.equal(recorded.inputPrompts[0].value, 'carol', 'the configured default user is offered');
  // The panel holds its answers, so it asks for edits of the one it holds: none yet.
  assert.deepEqual(requests, [
    { context: { userId: 'alice', sessionId: 's1' }, uri: Uri.file(project).toString(), previousResultId: null },
  ]);
  const panel = recorded.panels[0];
  assert.equal(panel.viewType, 'agentws.preview');
  assert.equal(panel.title, 'Prompt: user alice · session s1');
  assert.equal((panel.webview.html.match(/<details class="section"/g) ?? []).length, 11);
  assert.match(recorded.statusBar.text, /alice\/s1/);

  // The next run offers the remembered context.
  recorded.inputAnswers = [undefined];
  await recorded.commands.get(Commands.preview)!();
  assert.equal(recorded.inputPrompts[2].value, 'alice');

  // An edit to a workspace file (saved or not) refreshes the preview; other files do not.
  recorded.textChange.fire({ document: { uri: Uri.file('/x/README.md') } });
  await tick();
  assert.equal(requests.length, 1);
  recorded.textChange.fire({ document: { uri: Uri.file(path.join(project, '.agentscope/workspace/skills/pdf/SKILL.md')) } });
  recorded.textChange.fire({ document: { uri: Uri.file(path.join(project, '.agentscope/workspace/MEMORY.md')) } });
  await tick();
  assert.equal(requests.length, 2, 'a burst of edits is one request');
  // The open page is updated in place (scroll and open sections kept), not reloaded.
  assert.equal(panel.webview.posted.length, 1);
  assert.match(panel.webview.html, /<div id="root" data-version="1">/);
  const update = panel.webview.posted[0] as PreviewUpdate;
  // The same answer again: the header is sent, no section.
  assert.deepEqual([update.type, update.from, update.to, update.count, update.sections], ['update', 1, 2, 11, []]);
  assert.doesNotMatch(update.header + update.notes, /<script/);

  // A page that missed an update asks for all of it, and gets the page of the last preview.
  panel.webview.messages.fire({ type: 'stale' });
  await tick(5);
  assert.match(panel.webview.html, /<div id="root" data-version="3">/);
  assert.equal((panel.webview.html.match(/<details class="section"/g) ?? []).length, 11);

  // A source link opens the file at its line (0-based in the API).
  panel.webview.messages.fire({ type: 'open', path: '.agentscope/workspace/skills/pdf/SKILL.md', line: 3 });
  await tick(5);
  const shown = recorded.shownDocuments.at(-1)!;
  assert.equal(shown.uri.fsPath, path.join(project, '.agentscope/workspace/skills/pdf/SKILL.md'));
  assert.equal((shown.options as { selection: { startLine: number } }).selection.startLine, 2);
  ext.dispose();
});

test("Preview System Prompt offers the store's users, and still lets another id be typed", async () => {
  const ext = await activated({ 'agentws.preview.userId': 'bob' });
  const storeRequests: unknown[] = [];
  const previews: unknown[] = [];
  recorded.requestHandler = (method, params) => {
    if (method === Methods.storeUsers) {
      storeRequests.push(params);
      return { store: 'redis://:***@h:6379/0', scope: 'user', ids: ['alice', 'bob', 'carol'] };
    }
    previews.push(params);
    return fixture;
  };
  recorded.quickPickAnswers = ['carol'];
  recorded.inputAnswers = ['s1'];
  await recorded.commands.get(Commands.preview)!();
  assert.deepEqual(storeRequests, [{ uri: Uri.file(project).toString() }]);
  const pick = recorded.quickPicks[0];
  assert.deepEqual(
    (pick.items as { label: string; id?: string }[]).map((i) => [i.label, i.id]),
    [
      ['bob', 'bob'],
      ['alice', 'alice'],
      ['carol', 'carol'],
      ['Other user id…', undefined],
    ],
    'the configured default first, then the store order, then typing another',
  );
  assert.equal((pick.items[0] as { description: string }).description, 'in the store · last used');
  // The session is typed: under scope `user` the store's ids are users.
  assert.equal(recorded.inputPrompts.length, 1);
  assert.match(recorded.inputPrompts[0].value ?? '', /^$/);
  assert.deepEqual(previews, [
    { context: { userId: 'carol', sessionId: 's1' }, uri: Uri.file(project).toString(), previousResultId: null },
  ]);

  // "Other user id…" falls back to typing one the store does not hold.
  recorded.quickPickAnswers = ['Other user id…'];
  recorded.inputAnswers = ['dave', 's2'];
  await recorded.commands.get(Commands.preview)!();
  assert.equal(recorded.inputPrompts[1].value, 'carol', 'the last user is offered for typing');
  assert.deepEqual((previews[1] as { context: unknown }).context, { userId: 'dave', sessionId: 's2' });

  // Dismissing the picker cancels the preview.
  recorded.quickPickAnswers = [undefined];
  await recorded.commands.get(Commands.preview)!();
  assert.equal(previews.length, 2);
  ext.dispose();
});

test('under scope session the store holds sessions: they are offered for the session id', async () => {
  const ext = await activated();
  recorded.requestHandler = (method) =>
    method === Methods.storeUsers ? { store: 'sqlite://s.db', scope: 'session', ids: ['s1', 's2'] } : fixture;
  recorded.inputAnswers = ['alice'];
  recorded.quickPickAnswers = ['s2'];
  await recorded.commands.get(Commands.preview)!();
  assert.equal(recorded.quickPicks.length, 1);
  assert.deepEqual(
    (recorded.quickPicks[0].items as { label: string }[]).map((i) => i.label),
    ['s1', 's2', 'Other session id…'],
  );
  assert.equal(recorded.panels[0].title, 'Prompt: user alice · session s2');
  ext.dispose();
});

test('a store that cannot be read (or an older server) leaves the ids to be typed', async () => {
  const ext = await activated();
  recorded.requestHandler = (method) => {
    if (method === Methods.storeUsers) {
      throw new Error('store `redis://:***@h` cannot connect');
    }
    return fixture;
  };
  recorded.inputAnswers = ['alice', 's1'];
  await recorded.commands.get(Commands.preview)!();
  assert.equal(recorded.quickPicks.length, 0);
  assert.equal(recorded.panels[0].title, 'Prompt: user alice · session s1');
  const output = ext.output as unknown as { lines: string[] };
  assert.ok(output.lines.some((l) => l.includes("the store's ids are not offered: store `redis://:***@h` cannot connect")), output.lines.join('\n'));
  ext.dispose();
});

test('a failed preview request shows the error in the panel', async () => {
  const ext = await activated();
  recorded.requestHandler = () => {
    throw new Error('Unhandled method agentws/previewPrompt');
  };
  await recorded.commands.get(Commands.preview)!('alice', 's1');
  assert.match(recorded.panels[0].webview.html, /agentws preview failed.*Unhandled method agentws\/previewPrompt/s);
  ext.dispose();
});

test('Compare with… opens a diff of two rendered prompts', async () => {
  const ext = await activated();
  recorded.requestHandler = (_method, params) => {
    const context = (params as { context: { harness?: string } }).context;
    return { ...fixture, text: `prompt for harness ${context.harness ?? 'default'}\n`, sections: [] };
  };
  await recorded.commands.get(Commands.preview)!('alice', 's1');
  recorded.inputAnswers = ['harness=2.0.2'];
  await recorded.commands.get(Commands.compare)!();
  const diff = recorded.executed.find((e) => e.command === 'vscode.diff')!;
  assert.ok(diff, 'vscode.diff was executed');
  const [left, right, title] = diff.args as [Uri, Uri, string];
  assert.equal(title, 'Prompt: user alice · session s1 ↔ user alice · session s1 · harness 2.0.2');
  const provider = recorded.contentProviders.get(PROMPT_SCHEME)!;
  assert.equal(provider.provideTextDocumentContent(left), 'prompt for harness default\n');
  assert.equal(provider.provideTextDocumentContent(right), 'prompt for harness 2.0.2\n');
  assert.equal(left.fsPath, '/prompt-alice-s1.md');
  assert.equal(right.fsPath, '/prompt-alice-s1-2.0.2.md');
  ext.dispose();
});

test('Explain Rule runs `agentws explain CODE` and shows its output', async () => {
  const ext = await activated();
  await recorded.commands.get(Commands.explainRule)!('SK001');
  const shown = recorded.shownDocuments.at(-1)!;
  assert.equal(shown.uri.scheme, PROMPT_SCHEME);
  assert.equal(recorded.contentProviders.get(PROMPT_SCHEME)!.provideTextDocumentContent(shown.uri), 'explained: explain SK001\n');
  ext.dispose();
});

test('Restart Server stops the old client and starts a new one', async () => {
  const ext = await activated();
  await recorded.commands.get(Commands.restart)!();
  assert.equal(recorded.clients.length, 2);
  assert.equal(recorded.clients[0].stopped, true);
  assert.equal(recorded.clients[1].started, true);
  ext.dispose();
});
