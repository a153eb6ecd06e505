#!/usr/bin/env bash
# `npm run test:workbench`: the extension's .vsix (AGENTWS_VSIX, default out/agentws.vsix) in a real
# VS Code (workbench.test.ts). code-server is installed once under the build folder
# (target/vscode-workbench/code-server); the run's files, and the XDG folders and HOME of everything
# it starts (code-server, chromium), are under target/vscode-workbench/run.
# AGENTWS_SCREENSHOT=PATH also writes the final screenshot there (the README's:
# ../../docs/preview-screenshot.png).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
extension=$(cd "$here/../.." && pwd)
root=$(cd "$extension/../.." && pwd)/target/vscode-workbench
"$here/install-code-server.sh" "$root/code-server"
home=$root/run-home
rm -rf "$home" && mkdir -p "$home"
export HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share \
  XDG_CACHE_HOME=$home/.cache XDG_STATE_HOME=$home/.local/state
export AGENTWS_WORKBENCH_DIR=$root
cd "$extension"
node --test --test-concurrency=1 out/test/workbench/workbench.test.js
