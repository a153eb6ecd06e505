// The preview panel's own work after an edit, on a workspace of any size: the same calls the
// panel makes (src/previewPanel.ts, `requestPreview` then `previewUpdate`, the message the open
// page is sent) against the real `agentws serve`, timed per phase. Not a test: it prints figures
// for docs/benchmarks.md.
//
//   npm run bench -- WORKSPACE [EDITS]
//
// opens the first skill of WORKSPACE (a project folder, e.g. one `genws` generated), asks the
// preview once whole, then EDITS times (default 50) changes that skill's description (unsaved,
// `didChange`, so every answer changes the skills block) and asks the preview again as the panel
// does: with `previousResultId`, applying the edits. Each edit is then asked a second time whole
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
import { PreviewModel } from '../src/protocol';
import { HeldPreview, Methods, PreviewParams, takePreviewAnswer, toPreviewModel } from '../src/protocol';

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
  const updates: PreviewUpdate[] = [];
  const firstBody = renderPreviewBody(shown, label);
  console.log(`first (whole) answer, asked, taken and rendered: ${since(start).toFixed(2)} ms; ${firstBody.length} characters of HTML`);

  const phases = { asked: [] as number[], applied: [] as number[], model: [] as number[], update: [] as number[], total: [] as number[] };
  const whole = { asked: [] as number[], total: [] as number[] };
  const sent: number[] = [];
  for (let i = 1; i <= edits; i++) {
    const text = original.replace(/^description: .*$/m, (line) => `${line} Edit ${i}.`);
    connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: uri(skill), version: i + 1 },
      contentChanges: [{ text }],
    });
    // As the panel does: the edits of the held answer, then the update of the page.
    start = process.hrtime.bigint();
    const answer = await connection.sendRequest(Methods.previewPrompt, params(held.resultId));
    phases.asked.push(since(start));
    let at = process.hrtime.bigint();
    const taken = takePreviewAnswer(held, answer);
    phases.applied.push(since(at));
    at = process.hrtime.bigint();
    const model = toPreviewModel(taken);
    phases.model.push(since(at));
    at = process.hrtime.bigint();
    const update = previewUpdate(shown, model, label, i, i + 1);
    phases.update.push(since(at));
    phases.total.push(since(start));
    sent.push(JSON.stringify(update).length);
    updates.push(update);
    // The same state asked whole, as by a client that takes no edits; its preview must agree.
    start = process.hrtime.bigint();
    const wholeAnswer = await connection.sendRequest(Methods.previewPrompt, params(null));
    whole.asked.push(since(start));
    const wholeModel = toPreviewModel(wholeAnswer);
    previewUpdate(shown, wholeModel, label, i, i + 1);
    whole.total.push(since(start));
    if (renderPreviewBody(wholeModel, label) !== renderPreviewBody(model, label)) {
      throw new Error(`edit ${i}: the preview built from edits differs from the whole answer`);
    }
    // Asking whole gave the server a new last answer: hold it, as the panel would.
    takePreviewAnswer(held, wholeAnswer);
    shown = model;
  }
  report('previewPrompt with previousResultId, answer received', phases.asked);
  report('  edits applied (takePreviewAnswer)', phases.applied);
  report('  model built (toPreviewModel)', phases.model);
  report('  page update built (previewUpdate)', phases.update);
  report('  in all, edit to page update', phases.total);
  report('previewPrompt whole, answer received', whole.asked);
  report('  in all, edit to page update', whole.total);
  const sizes = [...sent].sort((a, b) => a - b);
  console.log(`page update message: ${percentile(sizes, 50)} characters (p50), ${sizes[sizes.length - 1]} at most`);
  await inThePage(firstModel, updates, shown, label);
  await connection.sendRequest('shutdown');
  connection.sendNotification('exit');
  connection.dispose();
  proc.kill();
}

/**
 * Loads the page of `first` in headless Chromium and applies `updates` in order, each timed in the
 * page from the message to the end of a layout; then, for comparison, sets the whole body of
 * `last` as HTML (what the page did before updates came as changes) a few times.
 */
async function inThePage(first: PreviewModel, updates: PreviewUpdate[], last: PreviewModel, label: string): Promise<void> {
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
    const applied: number[] = [];
    for (const update of updates) {
      applied.push(
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
    report('page: an update applied, to the end of layout', applied);
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
