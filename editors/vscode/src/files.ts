// Which files the server handles, and how preview source paths map back to files. No `vscode`
// import: the extension turns these globs into document selectors and watchers.

import * as path from 'path';

/**
 * Glob patterns of the files the language server is given (open, changed, closed). The last one
 * covers MEMORY.md, knowledge/ and per-user override folders, so unsaved edits to anything the
 * prompt reads reach the server.
 */
export const SERVER_FILE_PATTERNS = [
  '**/SKILL.md',
  '**/subagents/*.md',
  '**/tools.json',
  '**/AGENTS.md',
  '**/agentws.toml',
  '**/.agentscope/workspace/**',
] as const;

/** Same set as SERVER_FILE_PATTERNS, as a test on a path with any separator. */
export function isServerFile(filePath: string): boolean {
  const p = filePath.replace(/\\/g, '/');
  const base = p.slice(p.lastIndexOf('/') + 1);
  return (
    base === 'SKILL.md' ||
    base === 'tools.json' ||
    base === 'AGENTS.md' ||
    base === 'agentws.toml' ||
    /\/subagents\/[^/]+\.md$/.test(p) ||
    p.includes('/.agentscope/workspace/')
  );
}

/** Preview sources are absolute or relative to the project folder the preview was made for. */
export function resolveSourcePath(sourcePath: string, projectFolder: string | undefined): string {
  if (path.isAbsolute(sourcePath) || projectFolder === undefined) {
    return sourcePath;
  }
  return path.join(projectFolder, sourcePath);
}
