// The packaged extension in a real VS Code: code-server (VS Code served to a browser, installed by
// install-code-server.sh) gets the built .vsix, opens a copy of examples/demo, and Debian's
// headless chromium, driven by playwright-core, uses it as a person would: the Problems panel, a
// hover, a completion, a quick fix, a rule link, the preview command, a store's files. Expected
// values come from the
// same binary's command line (`agentws check`, `agentws preview`) on the same files. Ends with the
// README's screenshot of the workbench. Run by run.sh (`npm run test:workbench`), which sets the
// XDG folders; everything is written under the build folder (target/vscode-workbench/run).
//
// code-server runs in its own process group, which is killed at the end: its extension hosts and
// the language servers they start would otherwise outlive it.

import { strict as assert } from 'node:assert';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { Browser, chromium, Frame, Page } from 'playwright-core';

const extensionRoot = path.resolve(__dirname, '..', '..', '..');
const repoRoot = path.resolve(extensionRoot, '..', '..');
const root = process.env.AGENTWS_WORKBENCH_DIR ?? path.join(repoRoot, 'target', 'vscode-workbench');
const codeServer = path.join(root, 'code-server', 'node_modules', '.bin', 'code-server');
const vsix = process.env.AGENTWS_VSIX ?? path.join(extensionRoot, 'out', 'agentws.vsix');
const screenshotTo = process.env.AGENTWS_SCREENSHOT;
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const manifest = JSON.parse(fs.readFileSync(path.join(extensionRoot, 'package.json'), 'utf8'));

const run = path.join(root, 'run');
const userData = path.join(run, 'user-data');
const extensions = path.join(run, 'extensions');
const folder = path.join(run, 'demo');
const toolsJson = path.join(folder, '.agentscope', 'workspace', 'tools.json');
// Bounds every wait: a step that does not happen within it fails the test, never hangs it.
const PATIENCE = 60_000;

let server: cp.ChildProcess | undefined;
let browser: Browser | undefined;
let page: Page;
let bundled: string;

/** PATH without any folder holding an `agentws`: the extension must use the one it carries. */
function pathWithoutAgentws(): string {
  return (process.env.PATH ?? '')
    .split(':')
    .filter((dir) => dir !== '' && !fs.existsSync(path.join(dir, 'agentws')))
    .join(':');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Polls `probe` every 200 ms until it returns a value, for at most PATIENCE. */
async function eventually<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const end = Date.now() + PATIENCE;
  for (;;) {
    const value = await probe();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > end) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every process of code-server's group: pid → executable. */
function processGroup(pgid: number): Map<number, string> {
  const found = new Map<number, string>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      // Fields after the command's closing parenthesis: state, ppid, pgrp.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (pgrp === pgid) {
        found.set(Number(entry), fs.readlinkSync(`/proc/${entry}/exe`));
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}

async function killGroup(pgid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  };
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    return;
  }
  for (let i = 0; i < 50 && alive(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (alive()) {
    process.kill(-pgid, 'SIGKILL');
  }
}

/** The bundled binary's answer on the same files: what the editor must show. */
function agentws(args: string[]): string {
  return cp.execFileSync(bundled, args, { cwd: folder, encoding: 'utf8', timeout: PATIENCE });
}

interface Expected {
  code: string;
  line: number;
  column: number;
  message: string;
}

/** `agentws check --format json [extra]` of the copy, the diagnostics of one file in panel order. */
function expectedProblems(file = '.agentscope/workspace/tools.json', extra: string[] = []): Expected[] {
  let out: string;
  try {
    out = agentws(['check', '--format', 'json', ...extra]);
  } catch (error) {
    // Exit 1: the demo has an error; the JSON is on stdout all the same.
    out = String((error as { stdout?: string }).stdout);
  }
  const report = JSON.parse(out) as {
    diagnostics: { path: string; code: string; message: string; range: { start: { line: number; column: number } } }[];
  };
  return report.diagnostics
    .filter((d) => d.path === file)
    .map((d) => ({ code: d.code, line: d.range.start.line, column: d.range.start.column, message: d.message }))
    .sort((a, b) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code));
}

async function command(name: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor();
  await input.fill(`>${name}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
  await page.keyboard.press('Enter');
}

/** Puts the cursor at a 1-based line and column of the active editor (Go to Line/Column). */
async function goTo(line: number, column: number): Promise<void> {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor();
  // Control+G opens Quick Open with `:` typed, the prefix of its Go to Line mode.
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

interface Row {
  code: string;
  line: number;
  column: number;
  message: string;
}

/** The agentws rows the Problems panel has rendered: code, position, first message line. */
async function renderedRows(): Promise<Row[]> {
  const rows = await page.locator('.markers-panel .monaco-list-row .marker-message-line.details-container').evaluateAll((nodes) =>
    nodes.map((node) => {
      const text = (selector: string) => (node.querySelector(selector) as HTMLElement | null)?.innerText ?? '';
      return {
        source: text('.marker-source'),
        code: text('.marker-code'),
        position: text('.marker-line'),
        message: text('.marker-message'),
      };
    }),
  );
  return rows
    .filter((r) => r.source === 'agentws')
    .map((r) => {
      const at = /Ln (\d+), Col (\d+)/.exec(r.position);
      return { code: r.code, line: Number(at?.[1]), column: Number(at?.[2]), message: r.message.trim() };
    });
}

/**
 * Every agentws row of the (filtered) Problems panel, in position order. The list renders only
 * the rows in view, so it is scrolled from top to bottom and the rows seen are collected. None
 * while the panel shows no list (nothing matches its filter yet).
 */
async function problemRows(): Promise<Row[]> {
  const list = page.locator('.markers-panel .monaco-list').first();
  const box = await list.boundingBox();
  if (box === null) {
    return [];
  }
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -100_000);
  const seen = new Map<string, Row>();
  for (let unchanged = 0, i = 0; unchanged < 2 && i < 50; i++) {
    const before = seen.size;
    for (const row of await renderedRows()) {
      seen.set(`${row.line}:${row.column}:${row.code}:${row.message}`, row);
    }
    unchanged = seen.size === before ? unchanged + 1 : 0;
    await page.mouse.wheel(0, box.height / 2);
    await page.waitForTimeout(100);
  }
  await page.mouse.wheel(0, -100_000);
  return [...seen.values()].sort((a, b) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code));
}

/** Waits until the Problems panel shows exactly `expected` (the server republishes after edits). */
async function problemsShow(expected: Expected[]): Promise<void> {
  const want = JSON.stringify(expected.map((e) => ({ ...e, message: e.message.split('\n')[0] })));
  let last: Row[] = [];
  try {
    await eventually('the Problems panel', async () => {
      last = await problemRows();
      return JSON.stringify(last) === want ? true : undefined;
    });
  } catch (error) {
    assert.deepEqual(last, JSON.parse(want), String(error));
  }
}

/** The lines the active editor shows (it renders spaces as no-break spaces). */
async function editorText(): Promise<string> {
  const text = await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText();
  return text.replace(/\u00a0/g, ' ');
}

before(async () => {
  assert.ok(fs.existsSync(codeServer), `${codeServer} is missing: run test/workbench/install-code-server.sh`);
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: npm run package`);
  fs.rmSync(run, { recursive: true, force: true });
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.cpSync(path.join(repoRoot, 'examples', 'demo'), folder, { recursive: true });
  // No agentws.path: the bundled server is the one to start.
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify({
      'security.workspace.trust.enabled': false,
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'chat.commandCenter.enabled': false,
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'editor.minimap.enabled': false,
      'files.autoSave': 'off',
      'editor.autoClosingQuotes': 'never',
      'editor.autoClosingBrackets': 'never',
    }),
  );
  const env = { ...process.env, PATH: pathWithoutAgentws() };
  const common = ['--user-data-dir', userData, '--extensions-dir', extensions];
  cp.execFileSync(codeServer, [...common, '--install-extension', vsix], { env, stdio: 'pipe', timeout: PATIENCE });
  const installed = fs.readdirSync(extensions).filter((name) => name.startsWith(`${manifest.publisher}.${manifest.name}-`));
  assert.equal(installed.length, 1, `installed: ${installed}`);
  bundled = path.join(extensions, installed[0], 'bin', 'agentws');
  assert.ok(fs.existsSync(bundled), `${bundled}: the .vsix carries no server`);

  const port = await freePort();
  const log = fs.openSync(path.join(run, 'code-server.log'), 'w');
  server = cp.spawn(
    codeServer,
    [...common, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry',
      '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override', folder],
    { env, detached: true, stdio: ['ignore', log, log] },
  );
  const pgid = server.pid as number;
  process.on('exit', () => {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  });
  await eventually('code-server to answer', async () => {
    try {
      return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok ? true : undefined;
    } catch {
      return undefined;
    }
  });
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  });
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 }, deviceScaleFactor: 1 });
  page.setDefaultTimeout(PATIENCE);
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`);
  await page.locator('.monaco-workbench .explorer-folders-view').waitFor();
});

after(async () => {
  // The last state, for a failure's diagnosis.
  await page?.screenshot({ path: path.join(run, 'last.png') }).catch(() => undefined);
  await browser?.close();
  if (server?.pid !== undefined) {
    await killGroup(server.pid);
    assert.equal(processGroup(server.pid).size, 0, 'code-server left processes behind');
  }
});

test('the extension activates and starts the server it carries', async () => {
  await page.locator('.statusbar-item', { hasText: 'agentws' }).first().waitFor();
  const pgid = server?.pid as number;
  const serverPid = await eventually('the bundled agentws serve', () => {
    for (const [pid, exe] of processGroup(pgid)) {
      if (exe === bundled) {
        return pid;
      }
    }
    return undefined;
  });
  assert.match(fs.readFileSync(`/proc/${serverPid}/cmdline`, 'utf8'), /\0serve\0/);
  await page.locator('.statusbar-item', { hasText: /agentws/ }).locator('.codicon-check').first().waitFor();
});

test('the Problems panel lists tools.json\'s diagnostics: code, position and text', async () => {
  await page.locator('.monaco-workbench').click({ position: { x: 800, y: 400 } });
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input.input');
  await input.fill('.agentscope/workspace/tools.json');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'tools.json' }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: 'tools.json' }).waitFor();
  await page.keyboard.press('Control+Shift+M');
  // A glob filters by file; plain text would also match messages that mention tools.json.
  await page.getByPlaceholder(/^Filter \(e\.g\. text/).fill('**/tools.json');
  const expected = expectedProblems();
  assert.ok(expected.some((e) => e.code === 'TJ012'), 'the demo\'s misspelt transport');
  // One diagnostic per list (allow, deny), the crm tools, the denied re-added tool, the transport.
  assert.equal(expected.length, 6);
  await problemsShow(expected);
});

test('a hover on a tool name says where it comes from', async () => {
  await page.locator('.editor-group-container.active .monaco-editor').first().click();
  await goTo(17, 10);
  await command('Show or Focus Hover');
  const hover = page.locator('.monaco-hover:not(.hidden)').first();
  await hover.waitFor();
  const text = await eventually('the server\'s hover', async () => {
    const t = await hover.innerText();
    return t.includes('lookup_traveller') ? t : undefined;
  });
  // The server's text and the diagnostic at that place, with its rule code.
  assert.match(text, /MCP server `?crm`?/);
  assert.match(text, /TJ020/);
  await page.keyboard.press('Escape');
});

test('a completion in `allow` offers the tools, and the edit updates the diagnostics unsaved', async () => {
  const before = expectedProblems();
  // A new entry after "list_bookings".
  await goTo(18, 20);
  await page.keyboard.type(',');
  await page.keyboard.press('Enter');
  // Quotes are not closed automatically (settings.json): the test types both.
  await page.keyboard.type('"web_"');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Control+Space');
  const labels = page.locator('.suggest-widget .monaco-list-row .label-name');
  const offered = await eventually('the tool completions', async () => {
    const all = await labels.allInnerTexts();
    return all.some((l) => l.includes('web_search')) ? all : undefined;
  });
  assert.ok(offered.every((l) => l.startsWith('web_')), `${offered}`);
  const focused = page.locator('.suggest-widget .monaco-list-row.focused .label-name');
  for (let i = 0; i < 10 && (await focused.innerText()) !== 'web_search'; i++) {
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  await eventually('the completed entry', async () => ((await editorText()).includes('"web_search"') ? true : undefined));
  // The allow-list now keeps web_search: the warning that it removes it goes, before any save.
  const gone = before.filter((e) => !(e.code === 'TJ029' && e.message.includes('`web_search`')));
  assert.equal(gone.length, before.length - 1);
  await problemsShow(gone.map((e) => (e.line > 18 ? { ...e, line: e.line + 1 } : e)));
});

test('the quick fix for the misspelt transport, applied from the light bulb menu', async () => {
  // The transport value, one line lower after the entry added above.
  await goTo(32, 22);
  await page.keyboard.press('Control+.');
  const title = 'Rename to `streamable-http`';
  await page.locator('.action-widget .monaco-list-row', { hasText: title }).first().waitFor();
  // The menu is driven by the keyboard (a pointer shield covers it while it opens): down to the
  // fix, then Enter.
  const focused = page.locator('.action-widget .monaco-list-row.focused');
  for (let i = 0; i < 10 && !(await focused.innerText()).includes(title); i++) {
    await page.keyboard.press('ArrowDown');
  }
  assert.match(await focused.innerText(), /Rename to `streamable-http`/);
  await page.keyboard.press('Enter');
  await eventually('the fixed transport', async () =>
    (await editorText()).includes('"transport": "streamable-http"') ? true : undefined,
  );
  await page.keyboard.press('Control+S');
  await eventually('the saved file', () =>
    fs.readFileSync(toolsJson, 'utf8').includes('"transport": "streamable-http"') ? true : undefined,
  );
  // Saved: the command line checks the same file, and the panel agrees with it: no TJ012, and the
  // crm tools no longer come from a skipped server.
  const now = expectedProblems();
  assert.ok(!now.some((e) => e.code === 'TJ012' || e.code === 'TJ020'), JSON.stringify(now));
  await problemsShow(now);
});

test('a rule code in the Problems panel opens the rule\'s explanation inside VS Code', async () => {
  const link = page.locator('.markers-panel .monaco-list-row a.monaco-link:has(.marker-code)').first();
  const code = (await link.innerText()).trim();
  assert.match(code, /^[A-Z]{2}\d{3}$/);
  await link.click();
  await page.locator('.tab.active', { hasText: `${code}.md` }).waitFor();
  const text = await eventually('the explanation', async () => {
    const t = await editorText();
    return t.startsWith(`${code} `) ? t : undefined;
  });
  assert.equal(text.split('\n')[0], agentws(['explain', code]).split('\n')[0]);
  await page.keyboard.press('Control+W');
  await page.locator('.tab', { hasText: `${code}.md` }).waitFor({ state: 'detached' });
});

/** The frame inside the preview's webview that holds its page. */
async function previewFrame(): Promise<Frame> {
  return eventually('the preview page', async () => {
    for (const frame of page.frames()) {
      if ((await frame.$('#root .summary').catch(() => null)) !== null) {
        return frame;
      }
    }
    return undefined;
  });
}

test('the preview command shows the prompt\'s sections and tokens', async () => {
  await page.locator('.editor-group-container.active .monaco-editor').first().click();
  await command('agentws: Preview System Prompt');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor();
  await input.fill('alice');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  await input.fill('');
  await page.keyboard.press('Enter');
  await page.locator('.tab', { hasText: 'Prompt' }).first().waitFor();
  const frame = await previewFrame();
  const expected = JSON.parse(agentws(['preview', '--format', 'json', '--user', 'alice'])) as {
    sections: { label: string; estimatedTokens: number }[];
  };
  const shown = await eventually('every section', async () => {
    const titles = await frame.locator('details.section summary .title').allInnerTexts();
    return titles.length === expected.sections.length ? titles : undefined;
  });
  assert.deepEqual(shown, expected.sections.map((s) => s.label));
  const tokens = await frame.locator('details.section summary .tokens').allInnerTexts();
  assert.deepEqual(
    tokens.map((t) => Number(/≈(\d+) tokens/.exec(t)?.[1])),
    expected.sections.map((s) => s.estimatedTokens),
  );
  const total = expected.sections.reduce((sum, s) => sum + s.estimatedTokens, 0);
  assert.match(await frame.locator('.summary').innerText(), new RegExp(`^${expected.sections.length} sections · ≈${total} tokens`));
  assert.match(await frame.locator('.context').innerText(), /alice/);
  // Open two sections for the picture.
  for (const title of ['## Available Skills', 'policies_md']) {
    const summary = frame.locator('details.section summary', { hasText: title }).first();
    if ((await summary.count()) > 0) {
      await summary.click();
    }
  }
});

test('screenshot of the workbench: editor, Problems panel and preview side by side', async () => {
  await page.mouse.move(0, 0);
  await page.waitForTimeout(500);
  const png = await page.screenshot({ path: path.join(run, 'workbench.png') });
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], 'PNG signature');
  if (screenshotTo) {
    fs.writeFileSync(screenshotTo, png);
  }
});

test('a store\'s files: the problems check --all-users prints, the file read-only, its users offered', async () => {
  // The demo in remote mode over a store seeded as the runtime writes it; the server sees the
  // changed agentws.toml through its file watcher and reads the store.
  cp.execFileSync(
    process.env.AGENTWS_PYTHON ?? 'python3',
    [path.join(repoRoot, 'editors', 'test-support', 'seed-store.py'), path.join(folder, 'store.db'), 'travel-desk'],
    { timeout: PATIENCE },
  );
  fs.appendFileSync(path.join(folder, 'agentws.toml'), '\n[filesystem]\nmode = "remote"\n\n[store]\nurl = "sqlite://store.db"\n');
  const stored = 'store:agents/travel-desk/users/bob/subagents:/night-train.md';
  const expected = expectedProblems(stored, ['--all-users']);
  assert.deepEqual(expected.map((e) => e.code), ['SA003']);
  // The filter matches the message (a stored file's name is not a path the filter knows).
  await page.getByPlaceholder(/^Filter \(e\.g\. text/).fill('unclosed bracket');
  await problemsShow(expected);

  // The row opens the stored text, which cannot be edited.
  await page.locator('.markers-panel .monaco-list-row .marker-message-line').first().dblclick();
  await page.locator('.tab.active', { hasText: 'night-train.md' }).waitFor();
  const text = await eventually('the stored text', async () => {
    const t = await editorText();
    return t.includes('name: night-train') ? t : undefined;
  });
  await page.locator('.editor-group-container.active .monaco-editor').first().click();
  await page.keyboard.type('EDITED');
  await page.waitForTimeout(300);
  assert.equal(await editorText(), text);

  // The preview offers the store's users and marks what it read from the store.
  await command('agentws: Preview System Prompt');
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await eventually('the store\'s users in the picker', async () => {
    const all = await rows.allInnerTexts();
    return all.some((r) => r.includes('alice')) && all.some((r) => r.includes('bob')) ? all : undefined;
  });
  const input = page.locator('.quick-input-widget input.input');
  await input.fill('alice');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  await input.fill('');
  await page.keyboard.press('Enter');
  const frame = await previewFrame();
  const source = frame.locator('a.source.stored', { hasText: 'users/alice/root:/AGENTS.md' }).first();
  // In a folded section: present, not visible.
  await source.waitFor({ state: 'attached' });
  assert.equal(await source.getAttribute('data-path'), 'store:agents/travel-desk/users/alice/root:/AGENTS.md');
});
