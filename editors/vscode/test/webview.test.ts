// Renders the preview webview's HTML for the fixture preview in headless Chromium (Debian's
// package, driven by playwright-core; no browser download), checks what a user sees — labelled
// folded sections, a token bar per section, links back to file:line, the notes. (The README's
// screenshot is taken in a real VS Code: test/workbench.)

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { previewUpdate, PreviewUpdate, renderPreviewHtml } from '../src/previewHtml';
import { toPreviewModel } from '../src/protocol';

const extensionRoot = path.resolve(__dirname, '..', '..');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const fixture = JSON.parse(fs.readFileSync(path.join(extensionRoot, 'test', 'fixtures', 'preview.json'), 'utf8'));
const model = toPreviewModel(fixture);

let browser: BrowserContext;
let page: Page;
let userDataDir: string;
const posted: unknown[] = [];

before(async () => {
  assert.ok(fs.existsSync(chromiumPath), `${chromiumPath} is missing: apt-get install -y chromium`);
  userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentws-chromium-'));
  // A new, empty profile per run (playwright passes it as --user-data-dir).
  browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    viewport: { width: 1000, height: 900 },
    deviceScaleFactor: 1,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  // Stand-in for the webview API, so the page's messages to the extension can be observed.
  await page.exposeFunction('__agentwsPost', (message: unknown) => void posted.push(message));
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    let state: unknown;
    w.acquireVsCodeApi = () => ({
      postMessage: (m: unknown) => (w.__agentwsPost as (m: unknown) => void)(m),
      getState: () => state,
      setState: (s: unknown) => (state = s),
    });
  });
  const html = renderPreviewHtml(model, {
    contextLabel: 'user alice · session s1 · harness 2026-09',
    nonce: 'dGVzdC1ub25jZQ==',
    cspSource: '',
    version: 1,
  });
  // A real navigation (not setContent) so the init script above runs before the page's script.
  const htmlFile = path.join(userDataDir, 'preview.html');
  fs.writeFileSync(htmlFile, html);
  await page.goto(`file://${htmlFile}`, { waitUntil: 'load' });
  assert.equal(await page.evaluate(() => typeof (window as unknown as Record<string, unknown>).acquireVsCodeApi), 'function');
});

after(async () => {
  await browser?.close();
  if (userDataDir) {
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
});

test('every section is a folded, labelled <details> with its token estimate', async () => {
  const titles = await page.locator('details.section summary .title').allTextContents();
  assert.deepEqual(titles, model.sections.map((s) => s.title));
  const openCount = await page.locator('details.section[open]').count();
  assert.equal(openCount, 0, 'sections start folded');
  const tokens = await page.locator('details.section summary .tokens').allTextContents();
  // A share of the prompt each; the memory budget on the MEMORY.md section alone, which it bounds.
  assert.equal(tokens[7], '≈472 tokens · 49.3% of the prompt · cut to fit the 500-token memory budget');
  assert.equal(tokens[9], '≈156 tokens · 16.3% of the prompt');
  assert.equal(tokens.filter((t) => t.includes('memory budget')).length, 1);
  assert.match(await page.locator('header .summary').textContent() ?? '', /11 sections · ≈958 tokens ·\s+memory budget 500 tokens, ≈472 of them taken before MEMORY\.md/);
});

test('a token bar per section, its width the share of the prompt: the bars add up to the whole', async () => {
  const bars = page.locator('details.section .bar');
  assert.equal(await bars.count(), model.sections.length);
  const widths = await page.$$eval('details.section .bar', (els) =>
    els.map((bar) => {
      const fill = bar.querySelector('.fill') as HTMLElement;
      return Math.round((fill.getBoundingClientRect().width / bar.getBoundingClientRect().width) * 1000) / 10;
    }),
  );
  const prompt = model.sections.reduce((sum, s) => sum + s.tokens, 0);
  const expected = model.sections.map((s) => Math.round((s.tokens / prompt) * 1000) / 10);
  widths.forEach((width, i) => assert.ok(Math.abs(width - expected[i]) <= 1, `bar ${i}: ${width}% vs ${expected[i]}%`));
  const sum = widths.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - 100) <= 2, `the bars add up to ${sum}%`);
});

test('links from each section back to file:line, which post an open message', async () => {
  const links = await page.$$eval('a.source', (els) =>
    els.map((a) => ({ text: a.textContent, path: (a as HTMLElement).dataset.path, line: (a as HTMLElement).dataset.line })),
  );
  const expected = model.sections.flatMap((s) =>
    s.sources.map((src) => ({
      text: src.startLine === src.endLine ? `${src.path}:${src.startLine}` : `${src.path}:${src.startLine}-${src.endLine}`,
      path: src.path,
      line: String(src.startLine),
    })),
  );
  assert.deepEqual(links, expected);
  const built = await page.locator('details.section .builtin').count();
  assert.equal(built, model.sections.filter((s) => s.sources.length === 0).length);

  await page.locator('details.section').nth(9).locator('summary').click();
  await page.locator('details.section').nth(9).locator('a.source').first().click();
  await page.locator('#compare').click();
  // exposeFunction calls reach Node asynchronously.
  for (let i = 0; i < 100 && posted.length < 2; i++) {
    await page.waitForTimeout(20);
  }
  assert.deepEqual(posted, [
    { type: 'open', path: '.agentscope/workspace/skills/pdf/SKILL.md', line: 1 },
    { type: 'compare' },
  ]);
});

test('opened sections show the exact prompt text; notes and the truncation flag are shown', async () => {
  const agents = page.locator('details.section').nth(6);
  await agents.locator('summary').click();
  assert.equal(await agents.locator('pre.body').textContent(), model.sections[6].body);
  // Every section's text to the character, a leading newline included (the subagents section's).
  assert.ok(model.sections[10].body.startsWith('\n'));
  assert.deepEqual(await page.locator('details.section pre.body').allTextContents(), model.sections.map((s) => s.body));
  assert.deepEqual(await page.locator('.notes li').allTextContents(), model.notes);
  assert.equal(await page.locator('header .warn').textContent(), 'MEMORY.md cut to fit the budget');
});

const label = 'user alice · session s1 · harness 2026-09';
const post = (update: PreviewUpdate) => page.evaluate((m) => window.postMessage(m, '*'), update);
const version = () => page.$eval('#root', (el) => (el as HTMLElement).dataset.version);

/** Posts an update and waits until the page is at the version it makes. */
async function applied(update: PreviewUpdate): Promise<void> {
  await post(update);
  await page.waitForFunction((to) => document.getElementById('root')!.dataset.version === String(to), update.to);
}

/** Section `index`'s text edited by `edit`, applied as update `from` → `from + 1`, then back. */
async function spliceAndBack(index: number, edit: (body: string) => string, from: number): Promise<void> {
  const body = model.sections[index].body;
  const edited = structuredClone(model);
  edited.sections[index].body = edit(body);
  await applied(previewUpdate(model, edited, label, from, from + 1));
  assert.equal(await page.locator(`#section-${index} pre.body`).textContent(), edited.sections[index].body);
  await applied(previewUpdate(edited, model, label, from + 1, from + 2));
  assert.equal(await page.locator(`#section-${index} pre.body`).textContent(), body);
}

test('a live update changes the sections in place and keeps open ones open', async () => {
  const updated = structuredClone(model);
  updated.sections[6].title = 'AGENTS.md (edited)';
  // Markup in a text is text: it is set as a text node, never parsed.
  updated.sections[6].body = '<b>not bold</b> & kept';
  const before = await page.$$eval('details.section', (els) => els.map((d) => (d as HTMLDetailsElement).open));
  const sixth = await page.$('#section-6');
  await applied(previewUpdate(model, updated, label, 1, 2));
  assert.equal(await page.locator('details.section .title').nth(6).textContent(), 'AGENTS.md (edited)');
  assert.equal(await page.locator('#section-6 pre.body').textContent(), '<b>not bold</b> & kept');
  assert.equal(await page.locator('#section-6 pre.body b').count(), 0);
  assert.ok(await sixth!.evaluate((el) => el.isConnected), 'the section element is kept, not replaced');
  const after = await page.$$eval('details.section', (els) => els.map((d) => (d as HTMLDetailsElement).open));
  assert.deepEqual(after, before);
  const width = await page.$eval('#section-7 .bar .fill', (el) => (el as HTMLElement).style.width);
  assert.equal(width, '49.3%');

  // Two sections fewer, then back: the page drops them and builds them again, bars filled.
  const shorter = structuredClone(updated);
  shorter.sections.splice(9, 2);
  await applied(previewUpdate(updated, shorter, label, 2, 3));
  assert.equal(await page.locator('details.section').count(), 9);
  await applied(previewUpdate(shorter, model, label, 3, 4));
  assert.equal(await page.locator('details.section').count(), 11);
  assert.deepEqual(await page.locator('details.section .title').allTextContents(), model.sections.map((s) => s.title));
  assert.deepEqual(await page.locator('details.section pre.body').allTextContents(), model.sections.map((s) => s.body));
  assert.deepEqual(await page.locator('.notes li').allTextContents(), model.notes);
  const widths = await page.$$eval('details.section .bar .fill', (els) => els.map((el) => (el as HTMLElement).style.width));
  assert.ok(widths.every((w) => w.endsWith('%')), JSON.stringify(widths));
});

test('a text the parser cut into several nodes is spliced as one', async () => {
  // Chromium's parser cuts a text of more than 65 536 characters into several nodes (the skills
  // block of a large workspace); split one here the same way, and splice across the cut.
  const cut = await page.$eval('#section-6 pre.body', (pre, at) => {
    (pre.firstChild as Text).splitText(at);
    return pre.childNodes.length;
  }, 12);
  assert.equal(cut, 2);
  await spliceAndBack(6, (body) => `${body.slice(0, 10)}[across the cut]${body.slice(15)}`, 4);
});

test('a page shows texts with carriage returns and leading newlines to the character', async () => {
  const odd = structuredClone(model);
  odd.sections[6].body = 'Windows\r\nline ends\r\n\r\nand a lone\rCR';
  odd.sections[7].body = '\n\nTwo newlines first.';
  const other = await browser.newPage();
  try {
    const file = path.join(userDataDir, 'odd.html');
    fs.writeFileSync(file, renderPreviewHtml(odd, { contextLabel: label, nonce: 'b2Rk', cspSource: '', version: 1 }));
    await other.goto(`file://${file}`, { waitUntil: 'load' });
    assert.deepEqual(await other.locator('details.section pre.body').allTextContents(), odd.sections.map((s) => s.body));
  } finally {
    await other.close();
  }
});

test('a section whose text starts with a newline is spliced at the right place', async () => {
  await spliceAndBack(10, (body) => `${body.slice(0, 5)}[inserted]${body.slice(5)}`, 6);
});

test('an update made for another version of the page is refused, and the page asks for all of it', async () => {
  posted.length = 0;
  const edited = structuredClone(model);
  edited.sections[0].title = 'never shown';
  await post(previewUpdate(model, edited, label, 1, 2));
  for (let i = 0; i < 100 && posted.length < 1; i++) {
    await page.waitForTimeout(20);
  }
  assert.deepEqual(posted, [{ type: 'stale' }]);
  assert.equal(await version(), '8');
  assert.equal(await page.locator('details.section .title').first().textContent(), model.sections[0].title);
});
