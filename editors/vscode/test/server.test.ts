// Drives the real `agentws serve` binary through vscode-jsonrpc, as the extension's client does:
// initialize, open a fixture skill, receive its diagnostics, call agentws/previewPrompt (saved and
// unsaved content). A part is skipped, loudly, only when the binary lacks that method; a missing
// binary or a wrong answer fails.

import { strict as assert } from 'node:assert';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { test, TestContext } from 'node:test';
import {
  createMessageConnection,
  MessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import { HeldPreview, Methods, METHOD_NOT_FOUND, PreviewModel, StoreUsers, takePreviewAnswer, toPreviewModel, toStoreUsers } from '../src/protocol';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const binary = process.env.AGENTWS_BIN ?? path.join(repoRoot, 'target', 'debug', 'agentws');
const project = path.join(repoRoot, 'tests', 'fixtures', 'editors-basic');
const ws = path.join(project, '.agentscope', 'workspace');
const uri = (file: string) => pathToFileURL(file).toString();

interface Diagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  code?: string | number;
  source?: string;
  message: string;
}

/** Rejects when the process exits first, so a server that never answers cannot hang the test. */
function orExit<T>(proc: cp.ChildProcess, promise: Promise<T>, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new ServerExited(what, code));
    proc.once('exit', onExit);
    promise.then(
      (value) => {
        proc.off('exit', onExit);
        resolve(value);
      },
      (error) => {
        proc.off('exit', onExit);
        reject(error);
      },
    );
  });
}

class ServerExited extends Error {
  constructor(
    readonly what: string,
    readonly code: number | null,
  ) {
    super(`agentws serve exited (code ${code}) before ${what}`);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
    }),
  ]);
}

function isMethodNotFound(error: unknown): boolean {
  return error instanceof ResponseError && error.code === METHOD_NOT_FOUND;
}

/** The JSON of a whole `agentws/previewPrompt` answer, as the server writes it. */
interface RawPreview {
  text: string;
  sections: {
    kind: string;
    label: string;
    range: { start: number; end: number };
    sources: { path: string; lines: { start: number; end: number } | null }[];
    estimatedTokens: number;
  }[];
  budget: { maxContextTokens: number; usedTokens: number; truncated: boolean };
  notes: { code: string; message: string }[];
}

async function preview(connection: MessageConnection, context: object): Promise<PreviewModel> {
  return toPreviewModel(await connection.sendRequest(Methods.previewPrompt, { uri: uri(project), context }));
}

test('agentws serve over JSON-RPC: initialize, diagnostics, previewPrompt', async (t: TestContext) => {
  assert.ok(
    fs.existsSync(binary),
    `${binary} is missing: build it with \`cargo build --bin agentws\` (or set AGENTWS_BIN)`,
  );
  const proc = cp.spawn(binary, ['serve'], { cwd: project, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (chunk) => (stderr += chunk.toString()));
  // Writes go through a pipe that outlives the process, so a server that exits early turns into
  // a clear skip or failure below instead of a write-after-destroy error.
  const toServer = new PassThrough();
  toServer.pipe(proc.stdin!);
  proc.stdin!.on('error', () => undefined);
  proc.once('exit', () => {
    toServer.unpipe(proc.stdin!);
    toServer.resume();
  });
  const connection = createMessageConnection(
    new StreamMessageReader(proc.stdout!),
    new StreamMessageWriter(toServer),
  );
  const diagnostics = new Map<string, Diagnostic[]>();
  const diagnosticWaiters: (() => void)[] = [];
  connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string; diagnostics: Diagnostic[] }) => {
    diagnostics.set(params.uri, params.diagnostics);
    diagnosticWaiters.splice(0).forEach((wake) => wake());
  });
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('client/unregisterCapability', () => null);
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => null));
  connection.onNotification(() => undefined);
  connection.listen();

  try {
    let initialized: { capabilities: object; serverInfo?: { name: string } };
    try {
      initialized = await orExit(
        proc,
        withTimeout(
          connection.sendRequest('initialize', {
            processId: process.pid,
            rootUri: uri(project),
            workspaceFolders: [{ uri: uri(project), name: 'editors-basic' }],
            initializationOptions: { profile: 'harness' },
            capabilities: {
              general: { positionEncodings: ['utf-16'] },
              textDocument: {
                synchronization: { dynamicRegistration: false },
                publishDiagnostics: { versionSupport: true },
              },
              workspace: { workspaceFolders: true, configuration: true },
              window: { workDoneProgress: true },
            },
          }),
          30000,
          'initialize answer',
        ),
        'answering initialize',
      );
    } catch (error) {
      if (error instanceof ServerExited) {
        // The binary has no language server yet (the `serve` placeholder exits at once).
        t.skip(`binary lacks the language server: ${error.message}; stderr: ${stderr.trim() || '(empty)'}`);
        return;
      }
      throw error;
    }
    assert.ok(initialized.capabilities, 'initialize returns capabilities');
    connection.sendNotification('initialized', {});

    await t.test('diagnostics arrive for an opened skill whose name is a YAML boolean', async () => {
      const skill = path.join(ws, 'skills', 'broken', 'SKILL.md');
      connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: uri(skill), languageId: 'markdown', version: 1, text: fs.readFileSync(skill, 'utf8') },
      });
      const found = await withTimeout(
        new Promise<Diagnostic[]>((resolve) => {
          const check = () => {
            const list = diagnostics.get(uri(skill));
            if (list !== undefined && list.length > 0) {
              resolve(list);
            } else {
              diagnosticWaiters.push(check);
            }
          };
          check();
        }),
        30000,
        `diagnostics for ${skill}`,
      );
      const errors = found.filter((d) => d.severity === 1);
      assert.ok(errors.length >= 1, `expected an error, got ${JSON.stringify(found)}`);
      for (const d of found) {
        assert.match(String(d.code), /^[A-Z]{2}\d{3}$/, `rule code of ${JSON.stringify(d)}`);
        assert.equal(d.source, 'agentws');
      }
      assert.ok(
        errors.some((d) => d.range.start.line === 1),
        `an error starts on the "name: yes" line (0-based line 1): ${JSON.stringify(errors)}`,
      );
    });

    await t.test('agentws/previewPrompt renders per user, unsaved edits included', async (st: TestContext) => {
      let alice: PreviewModel;
      try {
        alice = await preview(connection, { userId: 'alice', sessionId: 's1' });
      } catch (error) {
        if (isMethodNotFound(error)) {
          st.skip(`binary lacks ${Methods.previewPrompt} (${(error as Error).message})`);
          return;
        }
        throw error;
      }
      const textBytes = Buffer.byteLength(alice.text, 'utf8');
      assert.ok(alice.text.startsWith('You are a helpful assistant.'), alice.text.slice(0, 200));
      assert.ok(alice.text.includes('回答は簡潔に。'), 'alice gets her own AGENTS.md');
      assert.ok(alice.sections.length >= 3, `sections: ${JSON.stringify(alice.sections.map((s) => s.title))}`);
      for (const section of alice.sections) {
        assert.ok(section.title !== '', 'every section has a title');
        assert.ok(section.start <= section.end && section.end <= textBytes, `range of ${section.title}`);
        assert.ok(section.tokens >= 0);
      }
      assert.ok(
        alice.sections.some((s) => s.body.includes('回答は簡潔に。') && s.sources.some((src) => src.path.endsWith('alice/AGENTS.md'))),
        'the AGENTS.md section points back at alice/AGENTS.md',
      );
      assert.equal(alice.budget.max, 8000, 'max_context_tokens from agentws.toml');

      const bob = await preview(connection, { userId: 'bob', sessionId: 's1' });
      assert.ok(bob.text.includes('Be concise and cite the file you used.'), 'bob gets the shared AGENTS.md');
      assert.ok(!bob.text.includes('回答は簡潔に。'));

      const override = path.join(ws, 'alice', 'AGENTS.md');
      connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: uri(override), languageId: 'markdown', version: 1, text: fs.readFileSync(override, 'utf8') },
      });
      connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: uri(override), version: 2 },
        contentChanges: [{ text: '# Assistant (alice)\n\nUNSAVED-EDIT-MARKER\n' }],
      });
      const edited = await preview(connection, { userId: 'alice', sessionId: 's1' });
      assert.ok(edited.text.includes('UNSAVED-EDIT-MARKER'), 'the preview reads the unsaved buffer');
      assert.ok(!edited.text.includes('回答は簡潔に。'));

      // A client holding the answer takes the next one as edits, which give the whole answer.
      const context = { userId: 'alice', sessionId: 's1' };
      const ask = (previousResultId?: string | null) =>
        connection.sendRequest(Methods.previewPrompt, { uri: uri(project), context, previousResultId });
      const held: HeldPreview = { resultId: null, answer: undefined };
      takePreviewAnswer(held, await ask(null));
      assert.ok(held.resultId !== null, 'a whole answer asked with previousResultId carries a resultId');
      connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: uri(override), version: 3 },
        contentChanges: [{ text: '# Assistant (alice)\n\nSECOND-EDIT 回答\n' }],
      });
      const answer = (await ask(held.resultId)) as { edits?: unknown[] };
      assert.ok(Array.isArray(answer.edits) && answer.edits.length > 0, `edits: ${JSON.stringify(answer)}`);
      const taken = takePreviewAnswer(held, answer);
      const { resultId: _, ...whole } = (await ask(undefined)) as Record<string, unknown>;
      assert.deepEqual(taken, whole);
      assert.ok(toPreviewModel(taken).text.includes('SECOND-EDIT 回答'));
    });

    await t.test('a real agentws/previewPrompt reply is read by the names it uses; the fixture has its shape', async () => {
      const raw = (await connection.sendRequest(Methods.previewPrompt, {
        uri: uri(project),
        context: { userId: 'alice', sessionId: 's1' },
      })) as RawPreview;
      const model = toPreviewModel(raw);
      assert.equal(model.text, raw.text);
      assert.deepEqual(
        model.sections.map((s) => [s.title, s.kind, s.start, s.end, s.tokens]),
        raw.sections.map((s) => [s.label, s.kind, s.range.start, s.range.end, s.estimatedTokens]),
      );
      assert.deepEqual(
        model.sections.map((s) => s.sources),
        raw.sections.map((s) =>
          s.sources.map((src) => ({ path: src.path, startLine: src.lines?.start ?? 1, endLine: src.lines?.end ?? 1 })),
        ),
      );
      assert.deepEqual(model.budget, {
        max: raw.budget.maxContextTokens,
        used: raw.budget.usedTokens,
        memoryTruncated: raw.budget.truncated,
      });
      assert.deepEqual(model.notes, raw.notes.map((n) => n.message));
      // Values the server sent, not the reader's defaults.
      assert.equal(model.budget.max, 8000);
      assert.ok(model.sections.every((s) => s.title !== 'section' && s.kind !== ''), JSON.stringify(raw.sections));
      assert.ok(model.sections.some((s) => s.tokens > 0 && s.sources.some((src) => src.endLine > 1)));
      assert.ok(model.notes.length > 0 && model.notes.every((n) => n !== ''));
      // The fixture the other tests render is shaped as a real reply: the same keys at every level
      // the client reads.
      const fixture = JSON.parse(
        fs.readFileSync(path.join(__dirname, '..', '..', 'test', 'fixtures', 'preview.json'), 'utf8'),
      ) as RawPreview;
      const keys = (...objects: object[]) => [...new Set(objects.flatMap((o) => Object.keys(o)))].sort();
      assert.deepEqual(keys(fixture), keys(raw));
      assert.deepEqual(keys(...fixture.sections), keys(...raw.sections));
      assert.deepEqual(keys(...fixture.sections.flatMap((s) => s.sources)), keys(...raw.sections.flatMap((s) => s.sources)));
      assert.deepEqual(keys(fixture.budget), keys(raw.budget));
      for (const note of [...fixture.notes, ...raw.notes]) {
        assert.deepEqual(keys(note).filter((k) => k !== 'rule' && k !== 'path'), ['code', 'message']);
      }
    });

    await t.test('agentws/storeUsers: a project without a store offers no ids', async (st: TestContext) => {
      let answer: StoreUsers;
      try {
        answer = toStoreUsers(await connection.sendRequest(Methods.storeUsers, { uri: uri(project) }));
      } catch (error) {
        if (isMethodNotFound(error)) {
          st.skip(`binary lacks ${Methods.storeUsers} (${(error as Error).message})`);
          return;
        }
        throw error;
      }
      assert.deepEqual(answer, { store: null, scope: 'user', ids: [] });
    });

    await orExit(proc, withTimeout(connection.sendRequest('shutdown'), 10000, 'shutdown answer'), 'shutdown');
    connection.sendNotification('exit');
    await withTimeout(
      new Promise((resolve) => (proc.exitCode !== null ? resolve(null) : proc.once('exit', resolve))),
      10000,
      'exit after shutdown',
    );
  } finally {
    connection.dispose();
    if (proc.exitCode === null) {
      proc.kill();
    }
  }
});
