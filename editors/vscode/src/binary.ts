// Finds the `agentws` executable: the `agentws.path` setting, then the binary bundled with the
// extension, then PATH. No `vscode` import: the caller passes in the setting and the file system.

import * as path from 'path';

export type BinarySource = 'setting' | 'bundled' | 'PATH';

export interface BinaryLookup {
  /** Value of the `agentws.path` setting (may be empty or relative to the first workspace folder). */
  settingPath: string | undefined;
  workspaceFolder: string | undefined;
  extensionPath: string;
  envPath: string | undefined;
  platform: NodeJS.Platform;
  /** True when the path names an executable regular file. */
  isExecutable: (file: string) => boolean;
}

export type BinaryResult =
  | { ok: true; path: string; source: BinarySource }
  | { ok: false; message: string };

export function executableName(platform: NodeJS.Platform): string {
  return platform === 'win32' ? 'agentws.exe' : 'agentws';
}

export function findBinary(lookup: BinaryLookup): BinaryResult {
  const name = executableName(lookup.platform);
  const setting = lookup.settingPath?.trim();
  if (setting) {
    const resolved =
      path.isAbsolute(setting) || lookup.workspaceFolder === undefined
        ? setting
        : path.join(lookup.workspaceFolder, setting);
    if (lookup.isExecutable(resolved)) {
      return { ok: true, path: resolved, source: 'setting' };
    }
    // A wrong explicit setting is reported rather than silently replaced by another binary.
    return {
      ok: false,
      message:
        `agentws: the setting "agentws.path" names ${resolved}, which is not an executable file. ` +
        'Fix the setting, or clear it to use the bundled binary or the one on PATH.',
    };
  }
  const bundled = path.join(lookup.extensionPath, 'bin', name);
  if (lookup.isExecutable(bundled)) {
    return { ok: true, path: bundled, source: 'bundled' };
  }
  const separator = lookup.platform === 'win32' ? ';' : ':';
  for (const dir of (lookup.envPath ?? '').split(separator)) {
    if (dir === '') {
      continue;
    }
    const candidate = path.join(dir, name);
    if (lookup.isExecutable(candidate)) {
      return { ok: true, path: candidate, source: 'PATH' };
    }
  }
  return {
    ok: false,
    message:
      'agentws: no agentws binary found (setting "agentws.path", the extension\'s bin/ folder, PATH). ' +
      'This package carries no server for this platform: install agentws (`cargo install --path server` ' +
      'from the agentws repository) or set "agentws.path" to the built binary (e.g. target/release/agentws).',
  };
}
