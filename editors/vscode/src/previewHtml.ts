// Renders a preview model into the webview's HTML. Pure string building with no `vscode` import,
// so the same page is what the extension shows and what the headless-Chromium test loads.

import { PreviewModel, PreviewSection, PreviewSource } from './protocol';

export interface RenderOptions {
  /** Shown in the header, e.g. "user alice · session s1 · harness 2026-09". */
  contextLabel: string;
  /** Per-page random value that lets the inline script and style through the CSP. */
  nonce: string;
  /** The webview's `cspSource`; empty outside VS Code. */
  cspSource: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` with the five HTML-special characters escaped, in one pass (a section runs to megabytes). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Share of the memory budget a section uses, as a bar width in percent (0–100). */
export function barPercent(tokens: number, max: number): number {
  if (max <= 0 || tokens <= 0) {
    return 0;
  }
  return Math.min(100, Math.round((tokens / max) * 1000) / 10);
}

export function sourceLabel(source: PreviewSource): string {
  return source.startLine === source.endLine
    ? `${source.path}:${source.startLine}`
    : `${source.path}:${source.startLine}-${source.endLine}`;
}

function renderSource(source: PreviewSource): string {
  return (
    `<a class="source" href="#" data-path="${escapeHtml(source.path)}" ` +
    `data-line="${source.startLine}">${escapeHtml(sourceLabel(source))}</a>`
  );
}

function renderSection(section: PreviewSection, index: number, budgetMax: number): string {
  const percent = barPercent(section.tokens, budgetMax);
  const over = budgetMax > 0 && section.tokens > budgetMax;
  const budgetText =
    budgetMax > 0 ? ` · ${percent}% of the ${budgetMax}-token memory budget` : '';
  const sources =
    section.sources.length > 0
      ? section.sources.map(renderSource).join(' ')
      : '<span class="builtin">built in (no workspace file)</span>';
  return `
<details class="section" id="section-${index}" data-index="${index}">
  <summary>
    <span class="title">${escapeHtml(section.title)}</span>
    <span class="tokens">≈${section.tokens} tokens${budgetText}</span>
    <span class="bar${over ? ' over' : ''}" role="meter" aria-valuemin="0" aria-valuemax="${budgetMax}" aria-valuenow="${section.tokens}" title="≈${section.tokens} tokens" data-percent="${percent}"><span class="fill"></span></span>
  </summary>
  <div class="sources">${sources}</div>
  <pre class="body">${escapeHtml(section.body)}</pre>
</details>`;
}

/**
 * The part of the page that changes with the preview. Live updates post it to the open page,
 * which swaps it in place, so the scroll position and the open sections survive an edit.
 */
export function renderPreviewBody(model: PreviewModel, contextLabel: string): string {
  const { budget } = model;
  const notes =
    model.notes.length > 0
      ? `<section class="notes"><h2>Notes</h2><ul>${model.notes
          .map((note) => `<li>${escapeHtml(note)}</li>`)
          .join('')}</ul></section>`
      : '';
  const truncated = budget.memoryTruncated
    ? '<span class="warn">MEMORY.md cut to fit the budget</span>'
    : '';
  const totalTokens = model.sections.reduce((sum, s) => sum + s.tokens, 0);
  return `<header>
  <h1>System prompt <button id="compare" type="button">Compare with…</button></h1>
  <div class="meta"><span class="context">${escapeHtml(contextLabel)}</span> ·
    <span class="summary">${model.sections.length} sections · ≈${totalTokens} tokens ·
    memory ${budget.used}/${budget.max} tokens</span>${truncated}</div>
</header>
<main>${model.sections.map((section, i) => renderSection(section, i, budget.max)).join('')}
</main>
${notes}`;
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
  .bar.over .fill { background: var(--vscode-errorForeground, #f14c4c); }
  .sources { padding: 0 8px 4px 28px; font-size: 0.92em; }
  .sources a { color: var(--vscode-textLink-foreground, #3794ff); margin-right: 10px; text-decoration: none; }
  .sources a:hover { text-decoration: underline; }
  .builtin { opacity: 0.7; font-style: italic; }
  pre.body { margin: 0; padding: 8px; white-space: pre-wrap; word-break: break-word;
         font-family: var(--vscode-editor-font-family, ui-monospace, monospace);
         background: var(--vscode-textCodeBlock-background, #0000001a); border-top: 1px solid var(--vscode-panel-border, #3c3c3c); }
  .notes h2 { font-size: 1em; margin: 14px 0 4px; }
  .notes li { margin: 2px 0; }
</style>
</head>
<body>
<div id="root">${renderPreviewBody(model, options.contextLabel)}</div>
<script nonce="${options.nonce}">
  (function () {
    const api = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;
    const root = document.getElementById('root');
    function openSections() {
      return Array.from(root.querySelectorAll('details.section'))
        .filter(function (d) { return d.open; }).map(function (d) { return d.dataset.index; });
    }
    // Widths through the CSSOM: the CSP refuses style attributes written in the markup.
    function apply() {
      const state = (api && api.getState()) || { open: [] };
      root.querySelectorAll('.bar').forEach(function (bar) {
        bar.querySelector('.fill').style.width = bar.dataset.percent + '%';
      });
      root.querySelectorAll('details.section').forEach(function (el) {
        if (state.open.indexOf(el.dataset.index) >= 0) { el.open = true; }
        el.addEventListener('toggle', function () {
          if (api) { api.setState({ open: openSections() }); }
        });
      });
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
      if (message && message.type === 'update' && typeof message.body === 'string') {
        if (api) { api.setState({ open: openSections() }); }
        root.innerHTML = message.body;
        apply();
      }
    });
    apply();
  })();
</script>
</body>
</html>`;
}
