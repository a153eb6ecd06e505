// Renders a preview model into the webview's HTML. Pure string building with no `vscode` import,
// so the same page is what the extension shows and what the headless-Chromium test loads.

import { isStoredLocation, PreviewBudget, PreviewModel, PreviewSection, PreviewSource } from './protocol';

export interface RenderOptions {
  /** Shown in the header, e.g. "user alice · session s1 · harness 2.0.2". */
  contextLabel: string;
  /** Per-page random value that lets the inline script and style through the CSP. */
  nonce: string;
  /** The webview's `cspSource`; empty outside VS Code. */
  cspSource: string;
  /** The page's version: a {@link PreviewUpdate} applies to the version it names only. */
  version: number;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '\r': '&#13;' };

/**
 * `text` with the five HTML-special characters escaped, in one pass (a section runs to megabytes),
 * and carriage returns as references: the parser turns a raw one (and CR LF) into a line feed, so
 * a file with Windows line ends would show a text that differs from the section's, and the
 * updates' offsets into it would be off.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'\r]/g, (c) => HTML_ESCAPES[c]);
}

/** `tokens` as a share of `whole`, in percent (0–100) with one decimal: a bar's width. */
export function barPercent(tokens: number, whole: number): number {
  if (whole <= 0 || tokens <= 0) {
    return 0;
  }
  return Math.min(100, Math.round((tokens / whole) * 1000) / 10);
}

/** The prompt's estimated size: the sum of its sections'. */
function promptTokens(model: PreviewModel): number {
  return model.sections.reduce((sum, s) => sum + s.tokens, 0);
}

export function sourceLabel(source: PreviewSource): string {
  return source.startLine === source.endLine
    ? `${source.path}:${source.startLine}`
    : `${source.path}:${source.startLine}-${source.endLine}`;
}

/** A source link; one to a file read from the store is marked so (it opens read-only). */
function renderSource(source: PreviewSource): string {
  const stored = isStoredLocation(source.path);
  const attributes = stored ? ' class="source stored" title="read from the store (opens read-only)"' : ' class="source"';
  const badge = stored ? '<span class="badge">store</span>' : '';
  return (
    `<a${attributes} href="#" data-path="${escapeHtml(source.path)}" ` +
    `data-line="${source.startLine}">${badge}${escapeHtml(sourceLabel(source))}</a>`
  );
}

/**
 * A section's `<summary>`: title, tokens, and a bar for its share of the prompt (the shares add up
 * to 100 %). The memory budget (`[agent] max_context_tokens`) bounds the loaded context only, and
 * only MEMORY.md is cut to fit it: its section alone says so.
 */
function renderSummary(section: PreviewSection, prompt: number, budget: PreviewBudget): string {
  const percent = barPercent(section.tokens, prompt);
  const share = prompt > 0 ? ` · ${percent}% of the prompt` : '';
  const memory =
    section.kind === 'memory-context' && budget.max > 0
      ? budget.memoryTruncated
        ? ` · cut to fit the ${budget.max}-token memory budget`
        : ` · within the ${budget.max}-token memory budget`
      : '';
  return `<summary>
    <span class="title">${escapeHtml(section.title)}</span>
    <span class="tokens">≈${section.tokens} tokens${share}${memory}</span>
    <span class="bar" role="meter" aria-valuemin="0" aria-valuemax="${prompt}" aria-valuenow="${section.tokens}" title="≈${section.tokens} of ≈${prompt} prompt tokens" data-percent="${percent}"><span class="fill"></span></span>
  </summary>`;
}

/** A section's source links (ten thousand of them for a large workspace's skills). */
function renderSources(section: PreviewSection): string {
  const sources =
    section.sources.length > 0
      ? section.sources.map(renderSource).join(' ')
      : '<span class="builtin">built in (no workspace file)</span>';
  return `<div class="sources">${sources}</div>`;
}

/**
 * A section as HTML. The parser drops a newline right after `<pre>`: one is written there, so that
 * a text that starts with its own (the code-execution and subagents sections) keeps it, and the
 * page's text is the section's to the character, as the updates' offsets need.
 */
function renderSection(section: PreviewSection, index: number, model: PreviewModel): string {
  return `
<details class="section" id="section-${index}" data-index="${index}">
  ${renderSummary(section, promptTokens(model), model.budget)}
  ${renderSources(section)}
  <pre class="body">\n${escapeHtml(section.body)}</pre>
</details>`;
}

function renderHeader(model: PreviewModel, contextLabel: string): string {
  const { budget } = model;
  const truncated = budget.memoryTruncated
    ? '<span class="warn">MEMORY.md cut to fit the budget</span>'
    : '';
  const totalTokens = promptTokens(model);
  return `<header>
  <h1>System prompt <button id="compare" type="button">Compare with…</button></h1>
  <div class="meta"><span class="context">${escapeHtml(contextLabel)}</span> ·
    <span class="summary">${model.sections.length} sections · ≈${totalTokens} tokens ·
    memory budget ${budget.max} tokens, ≈${budget.used} of them taken before MEMORY.md</span>${truncated}</div>
</header>`;
}

function renderNotes(model: PreviewModel): string {
  return model.notes.length > 0
    ? `<section class="notes"><h2>Notes</h2><ul>${model.notes
        .map((note) => `<li>${escapeHtml(note)}</li>`)
        .join('')}</ul></section>`
    : '';
}

/** The part of the page that changes with the preview (the whole page is {@link renderPreviewHtml}). */
export function renderPreviewBody(model: PreviewModel, contextLabel: string): string {
  return `${renderHeader(model, contextLabel)}
<main>${model.sections.map((section, i) => renderSection(section, i, model)).join('')}
</main>
<div id="notes">${renderNotes(model)}</div>`;
}

/**
 * What the open page is sent after an edit: the header and notes (a few lines), and of the sections
 * only what differs from the page's. A large workspace's skills block runs to megabytes of text and
 * ten thousand source links, and a description edit changes a few characters of it: escaping,
 * sending and parsing all of it again after every edit cost more than everything else the panel
 * does. So a section's text is sent as the one span that changed (UTF-16 offsets, which the page
 * applies to its text node as text, never as HTML), and its links only when they changed. `from`
 * is the version of the page this applies to (a page at another version asks for the whole page
 * instead), `to` the version it makes.
 */
export interface PreviewUpdate {
  type: 'update';
  from: number;
  to: number;
  header: string;
  notes: string;
  /** How many sections there are now: the page drops those past it. */
  count: number;
  sections: SectionUpdate[];
}

/** One section's change; a section the page lacks comes with `sources` and `text`. */
export interface SectionUpdate {
  index: number;
  summary: string;
  sources?: string;
  /** The whole text, for a new section. */
  text?: string;
  /** The span of the text that changed, for a section the page has. */
  splice?: TextSplice;
}

/** `deleteCount` UTF-16 units at `start` replaced by `insert`. */
export interface TextSplice {
  start: number;
  deleteCount: number;
  insert: string;
}

export function previewUpdate(shown: PreviewModel, model: PreviewModel, contextLabel: string, from: number, to: number): PreviewUpdate {
  const sections: SectionUpdate[] = [];
  const prompt = promptTokens(model);
  const shownPrompt = promptTokens(shown);
  model.sections.forEach((section, index) => {
    const summary = renderSummary(section, prompt, model.budget);
    const before = shown.sections[index];
    if (before === undefined) {
      sections.push({ index, summary, sources: renderSources(section), text: section.body });
      return;
    }
    const sameSources = sameSourceList(before.sources, section.sources);
    const sameText = before.body === section.body;
    if (sameSources && sameText && summary === renderSummary(before, shownPrompt, shown.budget)) {
      return;
    }
    const change: SectionUpdate = { index, summary };
    if (!sameSources) {
      change.sources = renderSources(section);
    }
    if (!sameText) {
      change.splice = textSplice(before.body, section.body);
    }
    sections.push(change);
  });
  return {
    type: 'update',
    from,
    to,
    header: renderHeader(model, contextLabel),
    notes: renderNotes(model),
    count: model.sections.length,
    sections,
  };
}

function sameSourceList(a: PreviewSource[], b: PreviewSource[]): boolean {
  return (
    a === b ||
    (a.length === b.length &&
      a.every((s, i) => s.path === b[i].path && s.startLine === b[i].startLine && s.endLine === b[i].endLine))
  );
}

/**
 * The one span that turns `before` into `after`: their common start and end left out. Compared a
 * block at a time (a slice and a native comparison), since the texts run to megabytes.
 */
export function textSplice(before: string, after: string): TextSplice {
  const shorter = Math.min(before.length, after.length);
  const BLOCK = 4096;
  let head = 0;
  while (head + BLOCK <= shorter && before.slice(head, head + BLOCK) === after.slice(head, head + BLOCK)) {
    head += BLOCK;
  }
  while (head < shorter && before.charCodeAt(head) === after.charCodeAt(head)) {
    head += 1;
  }
  const most = shorter - head;
  let tail = 0;
  while (tail + BLOCK <= most && before.slice(before.length - tail - BLOCK, before.length - tail) === after.slice(after.length - tail - BLOCK, after.length - tail)) {
    tail += BLOCK;
  }
  while (tail < most && before.charCodeAt(before.length - tail - 1) === after.charCodeAt(after.length - tail - 1)) {
    tail += 1;
  }
  return { start: head, deleteCount: before.length - head - tail, insert: after.slice(head, after.length - tail) };
}

export function renderPreviewHtml(model: PreviewModel, options: RenderOptions): string {
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${options.nonce}'`,
    `script-src 'nonce-${options.nonce}'`,
    options.cspSource ? `img-src ${options.cspSource}` : '',
  ]
    .filter((part) => part !== '')
    .join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agentws: system prompt</title>
<style nonce="${options.nonce}">
  body { font-family: var(--vscode-font-family, system-ui, sans-serif); font-size: var(--vscode-font-size, 13px);
         color: var(--vscode-foreground, #cccccc); background: var(--vscode-editor-background, #1e1e1e);
         margin: 0; padding: 12px 16px; }
  header h1 { font-size: 1.2em; margin: 0 0 4px; }
  #compare { margin-left: 12px; font-size: 0.75em; color: var(--vscode-button-foreground, #fff);
         background: var(--vscode-button-background, #0e639c); border: none; padding: 3px 8px; cursor: pointer; }
  header .meta { opacity: 0.8; margin-bottom: 10px; }
  .warn { color: var(--vscode-editorWarning-foreground, #cca700); margin-left: 8px; }
  .section { border: 1px solid var(--vscode-panel-border, #3c3c3c); border-radius: 4px; margin: 6px 0; }
  .section > summary { cursor: pointer; padding: 6px 8px; display: grid;
         grid-template-columns: 12px minmax(160px, 1fr) auto 180px; list-style: none; gap: 12px; align-items: center; }
  .section > summary::-webkit-details-marker { display: none; }
  .section > summary::before { content: '▸'; opacity: 0.7; }
  .section[open] > summary::before { content: '▾'; }
  .title { font-weight: 600; }
  .tokens { opacity: 0.85; font-variant-numeric: tabular-nums; white-space: nowrap; }
  .bar { display: inline-block; height: 8px; width: 180px; border-radius: 4px;
         background: var(--vscode-progressBar-background, #0e639c33); background-color: #80808040; overflow: hidden; }
  .bar .fill { display: block; height: 100%; background: var(--vscode-progressBar-background, #0e70c0); }
  .sources { padding: 0 8px 4px 28px; font-size: 0.92em; }
  .sources a { color: var(--vscode-textLink-foreground, #3794ff); margin-right: 10px; text-decoration: none; }
  .sources a:hover { text-decoration: underline; }
  .sources a.stored .badge { border: 1px solid currentColor; border-radius: 3px; padding: 0 3px; margin-right: 4px; font-size: 0.85em; }
  .builtin { opacity: 0.7; font-style: italic; }
  pre.body { margin: 0; padding: 8px; white-space: pre-wrap; word-break: break-word;
         font-family: var(--vscode-editor-font-family, ui-monospace, monospace);
         background: var(--vscode-textCodeBlock-background, #0000001a); border-top: 1px solid var(--vscode-panel-border, #3c3c3c); }
  .notes h2 { font-size: 1em; margin: 14px 0 4px; }
  .notes li { margin: 2px 0; }
</style>
</head>
<body>
<div id="root" data-version="${options.version}">${renderPreviewBody(model, options.contextLabel)}</div>
<script nonce="${options.nonce}">
  (function () {
    const api = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;
    const root = document.getElementById('root');
    function openSections() {
      return Array.from(root.querySelectorAll('details.section'))
        .filter(function (d) { return d.open; }).map(function (d) { return d.dataset.index; });
    }
    // Widths through the CSSOM: the CSP refuses style attributes written in the markup.
    function fillBars(within) {
      within.querySelectorAll('.bar').forEach(function (bar) {
        bar.querySelector('.fill').style.width = bar.dataset.percent + '%';
      });
    }
    function remember(section) {
      section.addEventListener('toggle', function () {
        if (api) { api.setState({ open: openSections() }); }
      });
    }
    // A section of an update: its summary and links replaced, its text changed as text (never
    // parsed as HTML). The parser may have cut a long text into several nodes: one is spliced.
    function update(change, main) {
      let section = document.getElementById('section-' + change.index);
      if (!section) {
        section = document.createElement('details');
        section.className = 'section';
        section.id = 'section-' + change.index;
        section.dataset.index = String(change.index);
        section.innerHTML = '<summary></summary><div class="sources"></div><pre class="body"></pre>';
        main.appendChild(section);
        remember(section);
      }
      section.querySelector('summary').outerHTML = change.summary;
      if (typeof change.sources === 'string') { section.querySelector('.sources').outerHTML = change.sources; }
      const body = section.querySelector('pre.body');
      if (typeof change.text === 'string') { body.textContent = change.text; }
      const splice = change.splice;
      if (splice) {
        body.normalize();
        const node = body.firstChild;
        if (node && node.nodeType === Node.TEXT_NODE && body.childNodes.length === 1) {
          node.replaceData(splice.start, splice.deleteCount, splice.insert);
        } else {
          const text = body.textContent;
          body.textContent = text.slice(0, splice.start) + splice.insert + text.slice(splice.start + splice.deleteCount);
        }
      }
      fillBars(section);
    }
    function apply(message) {
      if (Number(root.dataset.version) !== message.from) {
        // Not the page the update was made for: ask for the whole page.
        if (api) { api.postMessage({ type: 'stale' }); }
        return;
      }
      root.querySelector('header').outerHTML = message.header;
      document.getElementById('notes').innerHTML = message.notes;
      const main = root.querySelector('main');
      message.sections.forEach(function (change) { update(change, main); });
      main.querySelectorAll('details.section').forEach(function (section) {
        if (Number(section.dataset.index) >= message.count) { section.remove(); }
      });
      root.dataset.version = String(message.to);
    }
    root.addEventListener('click', function (event) {
      if (event.target.closest('#compare')) {
        if (api) { api.postMessage({ type: 'compare' }); }
        return;
      }
      const link = event.target.closest('a.source');
      if (!link) { return; }
      event.preventDefault();
      if (api) {
        api.postMessage({ type: 'open', path: link.dataset.path, line: Number(link.dataset.line) });
      }
    });
    window.addEventListener('message', function (event) {
      const message = event.data;
      if (message && message.type === 'update' && Array.isArray(message.sections)) {
        apply(message);
      }
    });
    const state = (api && api.getState()) || { open: [] };
    fillBars(root);
    root.querySelectorAll('details.section').forEach(function (section) {
      if (state.open.indexOf(section.dataset.index) >= 0) { section.open = true; }
      remember(section);
    });
  })();
</script>
</body>
</html>`;
}
