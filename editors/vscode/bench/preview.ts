// The preview panel's own work after an edit, on a workspace of any size: the same calls the
// panel makes (src/previewPanel.ts, `requestPreview` then `renderPreviewBody`) against the real
// `agentws serve`, timed per phase. Not a test: it prints figures for docs/benchmarks.md.
//
//   npm run bench -- WORKSPACE [EDITS]
//
// opens the first skill of WORKSPACE (a project folder, e.g. one `genws` generated), asks the
// preview once whole, then EDITS times (default 50) changes that skill's description (unsaved,
// `didChange`, so every answer changes the skills block) and asks the preview again as the panel
// does: with `previousResultId`, applying the edits. Each edit is then asked a second time whole
// (`previousResultId: null`), as by a client that takes no edits, for comparison. The server is
// `AGENTWS_BIN` or the checkout's release build.

import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { renderPreviewBody } from '../src/previewHtml';
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
  let start = process.hrtime.bigint();
  const first = await connection.sendRequest(Methods.previewPrompt, params(null));
  const firstBody = renderPreviewBody(toPreviewModel(takePreviewAnswer(held, first)), 'user alice · session bench');
  console.log(`first (whole) answer, asked, taken and rendered: ${since(start).toFixed(2)} ms; ${firstBody.length} characters of HTML`);

  const phases = { asked: [] as number[], applied: [] as number[], model: [] as number[], rendered: [] as number[], total: [] as number[] };
  const whole = { asked: [] as number[], total: [] as number[] };
  for (let i = 1; i <= edits; i++) {
    const text = original.replace(/^description: .*$/m, (line) => `${line} Edit ${i}.`);
    connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: uri(skill), version: i + 1 },
      contentChanges: [{ text }],
    });
    // As the panel does: the edits of the held answer.
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
    const body = renderPreviewBody(model, 'user alice · session bench');
    phases.rendered.push(since(at));
    phases.total.push(since(start));
    // The same state asked whole, for comparison; the held answer must agree with it.
    start = process.hrtime.bigint();
    const wholeAnswer = await connection.sendRequest(Methods.previewPrompt, params(null));
    whole.asked.push(since(start));
    const wholeBody = renderPreviewBody(toPreviewModel(wholeAnswer), 'user alice · session bench');
    whole.total.push(since(start));
    if (wholeBody !== body) {
      throw new Error(`edit ${i}: the preview built from edits differs from the whole answer`);
    }
    // Asking whole gave the server a new last answer: hold it, as the panel would.
    takePreviewAnswer(held, wholeAnswer);
  }
  report('previewPrompt with previousResultId, answer received', phases.asked);
  report('  edits applied (takePreviewAnswer)', phases.applied);
  report('  model built (toPreviewModel)', phases.model);
  report('  HTML rendered (renderPreviewBody)', phases.rendered);
  report('  in all, edit to HTML', phases.total);
  report('previewPrompt whole, answer received', whole.asked);
  report('  in all, edit to HTML', whole.total);
  await connection.sendRequest('shutdown');
  connection.sendNotification('exit');
  connection.dispose();
  proc.kill();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
