#!/usr/bin/env bash
# Installs code-server (a real VS Code served to a browser) from the npm registry into DIR, once:
# later calls find DIR/.installed and return at once. Nothing is downloaded from anywhere but the
# npm registry: code-server's own install script would fetch ripgrep from GitHub and Node's headers
# from nodejs.org, so its steps are done here by hand. Needs the Debian packages .ci/run installs
# (ripgrep, libkrb5-dev, libxkbfile-dev, libsecret-1-dev, pkg-config, a C++ compiler, python3).
# Usage: install-code-server.sh DIR
set -euo pipefail
dir=${1:?usage: install-code-server.sh DIR}
# The last code-server whose engines.node accepts Node 20 (VS Code 1.99.3).
version=4.99.4
if [[ -f $dir/.installed && $(cat "$dir/.installed") == "$version" ]]; then
  exit 0
fi
rm -rf "$dir"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# npm's cache and the XDG folders stay under DIR, away from the user's.
export npm_config_cache=$dir/npm-cache
export XDG_CONFIG_HOME=$dir/xdg/config XDG_DATA_HOME=$dir/xdg/data XDG_CACHE_HOME=$dir/xdg/cache
npm_quiet=(--no-audit --no-fund --loglevel=error)

# 1. The package without its scripts (its postinstall.sh runs the steps below with downloads).
npm install --ignore-scripts "${npm_quiet[@]}" --prefix "$dir" "code-server@$version"
vscode=$dir/node_modules/code-server/lib/vscode

# 2. What postinstall.sh does, by hand. VS Code's dependencies, still without scripts ...
cd "$vscode"
npm install --omit=dev --ignore-scripts "${npm_quiet[@]}"
# ... Debian's ripgrep where @vscode/ripgrep looks for it (its postinstall then skips the
# download: "bin/ folder already exists") ...
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
# ... then the install scripts: node-gyp builds the native modules against the headers Node ships
# in /usr/include/node (nodedir), not a download; node-pty's script runs `npx node-gyp`, which
# npm_config_yes lets through.
npm_config_nodedir=/usr npm_config_yes=true npm rebuild --foreground-scripts --loglevel=error >"$dir/rebuild.log" 2>&1 ||
  { tail -40 "$dir/rebuild.log"; exit 1; }
ln -sfn node_modules node_modules.asar
ln -sfn code-linux.sh bin/remote-cli/code-server
ln -sfn browser-linux.sh bin/helpers/browser.sh
(cd extensions && npm install --omit=dev "${npm_quiet[@]}")

# 3. code-server's own native module (its prebuilt binary comes from GitHub: built here instead).
cd "$dir"
npm_config_nodedir=/usr npm rebuild argon2 --loglevel=error >>"$dir/rebuild.log" 2>&1 ||
  { tail -40 "$dir/rebuild.log"; exit 1; }
"$dir/node_modules/.bin/code-server" --version
rm -rf "$dir/npm-cache"
echo "$version" >"$dir/.installed"
