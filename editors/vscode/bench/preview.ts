// The preview panel's own work after an edit, on a workspace of any size: the same calls the
// panel makes (src/previewPanel.ts, `requestPreview` then `previewUpdate`, the message the open
// page is sent) against the real `agentws serve`, timed per phase. Not a test: it prints figures
// for docs/benchmarks.md.
//
//   npm run bench -- WORKSPACE [EDITS]
//
// opens the first skill of WORKSPACE (a project folder, e.g. one `genws` generated), asks the
// preview once whole, then makes EDITS changes (default 50), in turn: that skill's description
// edited (unsaved, `didChange`: the skills block's text changes), a skill created in a new folder
// that sorts first, and that folder deleted (on disk, `didChangeWatchedFiles`: every skill moves
// one place, and the ten thousand source links change). After each it asks the preview again as
// the panel does: with `previousResultId`, applying the edits. Each change is then asked a second time whole
// (`previousResultId: null`), as by a client that takes no edits, for comparison. The server is
// `AGENTWS_BIN` or the checkout's release build. Then, when Chromium is installed (`CHROMIUM_PATH`,
// default /usr/bin/chromium), the page itself: the first page loaded, each update applied in it,
// timed inside the page to the end of a forced layout, against setting the whole body as HTML.

import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { chromium } from 'playwright-core';
import { previewUpdate, PreviewUpdate, renderPreviewBody, renderPreviewHtml } from '../src/previewHtml';
import { HeldPreview, Methods, PreviewModel, PreviewParams, takePreviewAnswer, toPreviewModel } from '../src/protocol';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const binary = process.env.AGENTWS_BIN ?? path.join(repoRoot, 'target', 'release', 'agentws');
const uri = (file: string) => pathToFileURL(file).toString();

/** Milliseconds since `start` (a `process.hrtime.bigint()` reading). */
const since = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

function report(what: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const f = (ms: number) => ms.toFixed(2);
  console.log(
    `${what} (${sorted.length} samples): p50 ${f(percentile(sorted, 50))} ms, p99 ${f(percentile(sorted, 99))} ms, max ${f(sorted[sorted.length - 1])} ms`,
  );
}

/** The first skill folder's SKILL.md under `project`, in name order. */
function firstSkill(project: string): string {
  const skills = path.join(project, '.agentscope', 'workspace', 'skills');
  const first = fs.readdirSync(skills).sort().find((name) => fs.existsSync(path.join(skills, name, 'SKILL.md')));
  if (first === undefined) {
    throw new Error(`${skills} holds no skill`);
  }
  return path.join(skills, first, 'SKILL.md');
}

async function connect(project: string): Promise<{ connection: MessageConnection; proc: cp.ChildProcess }> {
  const proc = cp.spawn(binary, ['serve'], { cwd: project, stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => null));
  connection.onNotification(() => undefined);
  connection.listen();
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: uri(project),
    workspaceFolders: [{ uri: uri(project), name: 'bench' }],
    capabilities: { general: { positionEncodings: ['utf-16'] }, workspace: { workspaceFolders: true, configuration: true } },
  });
  connection.sendNotification('initialized', {});
  return { connection, proc };
}

async function main(): Promise<void> {
  const [project, editsArg] = process.argv.slice(2);
  if (project === undefined) {
    throw new Error('usage: npm run bench -- WORKSPACE [EDITS]');
  }
  const edits = Number(editsArg ?? 50);
  const { connection, proc } = await connect(path.resolve(project));
  const skill = firstSkill(path.resolve(project));
  const original = fs.readFileSync(skill, 'utf8');
  const context = { userId: 'alice', sessionId: 'bench' };
  const params = (previousResultId: string | null): PreviewParams => ({ uri: uri(path.resolve(project)), context, previousResultId });
  connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri: uri(skill), languageId: 'markdown', version: 1, text: original },
  });

  const held: HeldPreview = { resultId: null, answer: undefined };
  const label = 'user alice · session bench';
  let start = process.hrtime.bigint();
  const first = await connection.sendRequest(Methods.previewPrompt, params(null));
  let shown: PreviewModel = toPreviewModel(takePreviewAnswer(held, first));
  const firstModel = shown;
  const firstBody = renderPreviewBody(shown, label);
  console.log(`first (whole) answer, asked, taken and rendered: ${since(start).toFixed(2)} ms; ${firstBody.length} characters of HTML`);

  // A skill folder that sorts before every generated one, so that creating it moves them all.
  const created = path.join(path.resolve(project), '.agentscope', 'workspace', 'skills', '0-bench-created');
  const createdFile = path.join(created, 'SKILL.md');
  const watched = (type: number) =>
    connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [
        { uri: uri(createdFile), type },
        { uri: uri(created), type },
      ],
    });
  type Kind = 'description edited' | 'skill created in a new folder' | 'that folder deleted';
  const kinds: Kind[] = ['description edited', 'skill created in a new folder', 'that folder deleted'];
  const change: Record<Kind, (i: number) => void> = {
    'description edited': (i) =>
      connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: uri(skill), version: i + 1 },
        contentChanges: [{ text: original.replace(/^description: .*$/m, (line) => `${line} Edit ${i}.`) }],
      }),
    'skill created in a new folder': () => {
      fs.mkdirSync(created, { recursive: true });
      fs.writeFileSync(createdFile, '---\nname: zz-bench-created\ndescription: Made by the bench.\n---\nBody.\n');
      watched(1);
    },
    'that folder deleted': () => {
      fs.rmSync(created, { recursive: true, force: true });
      watched(3);
    },
  };
  const phases = () => ({ asked: [] as number[], applied: [] as number[], model: [] as number[], update: [] as number[], total: [] as number[], whole: [] as number[], sent: [] as number[] });
  const byKind = new Map(kinds.map((kind) => [kind, phases()]));
  const updates: { kind: Kind; update: PreviewUpdate }[] = [];
  try {
    for (let i = 1; i <= edits; i++) {
      const kind = kinds[(i - 1) % kinds.length];
      const times = byKind.get(kind)!;
      change[kind](i);
      // As the panel does: the edits of the held answer, then the update of the page.
      start = process.hrtime.bigint();
      const answer = await connection.sendRequest(Methods.previewPrompt, params(held.resultId));
      times.asked.push(since(start));
      let at = process.hrtime.bigint();
      const taken = takePreviewAnswer(held, answer);
      times.applied.push(since(at));
      at = process.hrtime.bigint();
      const model = toPreviewModel(taken);
      times.model.push(since(at));
      at = process.hrtime.bigint();
      const update = previewUpdate(shown, model, label, i, i + 1);
      times.update.push(since(at));
      times.total.push(since(start));
      times.sent.push(JSON.stringify(update).length);
      updates.push({ kind, update });
      // The same state asked whole, as by a client that takes no edits; its preview must agree.
      start = process.hrtime.bigint();
      const wholeAnswer = await connection.sendRequest(Methods.previewPrompt, params(null));
      const wholeModel = toPreviewModel(wholeAnswer);
      previewUpdate(shown, wholeModel, label, i, i + 1);
      times.whole.push(since(start));
      if (renderPreviewBody(wholeModel, label) !== renderPreviewBody(model, label)) {
        throw new Error(`change ${i} (${kind}): the preview built from edits differs from the whole answer`);
      }
      // Asking whole gave the server a new last answer: hold it, as the panel would.
      takePreviewAnswer(held, wholeAnswer);
      shown = model;
    }
  } finally {
    fs.rmSync(created, { recursive: true, force: true });
  }
  for (const [kind, times] of byKind) {
    console.log(`${kind}:`);
    report('  previewPrompt with previousResultId, answer received', times.asked);
    report('    edits applied (takePreviewAnswer)', times.applied);
    report('    model built (toPreviewModel)', times.model);
    report('    page update built (previewUpdate)', times.update);
    report('    in all, change to page update', times.total);
    report('  previewPrompt whole, in all, change to page update', times.whole);
    const sizes = [...times.sent].sort((a, b) => a - b);
    console.log(`  page update message: ${percentile(sizes, 50)} characters (p50), ${sizes[sizes.length - 1]} at most`);
  }
  await inThePage(firstModel, updates, shown, label);
  await connection.sendRequest('shutdown');
  connection.sendNotification('exit');
  connection.dispose();
  proc.kill();
}

/**
 * Loads the page of `first` in headless Chromium and applies `updates` in order, each timed in the
 * page from the message to the end of a layout and reported by the kind of change; then, for comparison, sets the whole body of
 * `last` as HTML (what the page did before updates came as changes) a few times.
 */
async function inThePage(
  first: PreviewModel,
  updates: { kind: string; update: PreviewUpdate }[],
  last: PreviewModel,
  label: string,
): Promise<void> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) {
    console.log(`${executablePath} is missing: the page is not measured`);
    return;
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'agentws-bench-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const file = path.join(profile, 'preview.html');
    fs.writeFileSync(file, renderPreviewHtml(first, { contextLabel: label, nonce: 'YmVuY2g=', cspSource: '', version: 1 }));
    let start = process.hrtime.bigint();
    await page.goto(`file://${file}`, { waitUntil: 'load' });
    console.log(`page: the first page loaded in ${since(start).toFixed(2)} ms`);
    const applied = new Map<string, number[]>();
    for (const { kind, update } of updates) {
      applied.set(kind, applied.get(kind) ?? []);
      applied.get(kind)!.push(
        await page.evaluate(
          (message) =>
            new Promise<number>((resolve) => {
              const begun = performance.now();
              // Listeners run in the order they were added: this one after the page's own.
              window.addEventListener(
                'message',
                () => {
                  void document.body.offsetHeight;
                  resolve(performance.now() - begun);
                },
                { once: true },
              );
              window.postMessage(message, '*');
            }),
          update,
        ),
      );
      const version = await page.$eval('#root', (el) => (el as HTMLElement).dataset.version);
      if (version !== String(update.to)) {
        throw new Error(`the page refused update ${update.from} -> ${update.to} (it is at ${version})`);
      }
    }
    for (const [kind, times] of applied) {
      report(`page, ${kind}: the update applied, to the end of layout`, times);
    }
    const body = renderPreviewBody(last, label);
    const whole: number[] = [];
    for (let i = 0; i < 5; i++) {
      start = process.hrtime.bigint();
      whole.push(
        await page.evaluate((html) => {
          const begun = performance.now();
          document.getElementById('root')!.innerHTML = html;
          void document.body.offsetHeight;
          return performance.now() - begun;
        }, body),
      );
    }
    report(`page: the whole body (${body.length} characters) set as HTML, to the end of layout`, whole);
  } finally {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
