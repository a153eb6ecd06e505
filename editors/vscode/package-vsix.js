// `npm run package`: the .vsix with the agentws server inside it, for the platform it is built on
// (`vsce package --target`), so installing the extension is all a VS Code user does. The binary is
// `AGENTWS_BINARY` when set, else the release build of this checkout (`cargo build --release`,
// stripped by the workspace's release profile), copied to bin/agentws. Writes out/agentws.vsix
// (or the path given with --out). Used by .ci/run and test/package.test.ts.
const cp = require('child_process');
const fs = require('fs');
const path = require('path');

const extensionRoot = __dirname;
const repoRoot = path.resolve(extensionRoot, '..', '..');

/** vsce's name of the platform this process runs on (`linux-x64`, `darwin-arm64`, …). */
function vsceTarget(platform = process.platform, arch = process.arch, report = process.report) {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[platform];
  const cpu = { x64: 'x64', arm64: 'arm64', arm: 'armhf' }[arch];
  if (os === undefined || cpu === undefined) {
    throw new Error(`no VS Code platform for ${platform}-${arch}`);
  }
  // A Linux without glibc is Alpine's musl: VS Code names it apart.
  const glibc = platform !== 'linux' || Boolean(report?.getReport().header.glibcVersionRuntime);
  return `${glibc ? os : 'alpine'}-${cpu}`;
}

function binaryName(platform = process.platform) {
  return platform === 'win32' ? 'agentws.exe' : 'agentws';
}

function run(command, args, options = {}) {
  const result = cp.spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.error ?? `exit ${result.status}`})`);
  }
}

/** Copies the server into bin/ and packages; returns the .vsix path. */
function packageVsix({ out = path.join(extensionRoot, 'out', 'agentws.vsix'), binary = process.env.AGENTWS_BINARY } = {}) {
  let source = binary;
  if (!source) {
    run('cargo', ['build', '--release', '--locked', '--bin', 'agentws'], { cwd: repoRoot });
    source = path.join(repoRoot, 'target', 'release', binaryName());
  }
  if (!fs.statSync(source).isFile()) {
    throw new Error(`${source} is not a file`);
  }
  const bundled = path.join(extensionRoot, 'bin', binaryName());
  fs.rmSync(bundled, { force: true });
  fs.copyFileSync(source, bundled);
  fs.chmodSync(bundled, 0o755);
  const vsce = path.join(extensionRoot, 'node_modules', '.bin', 'vsce');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  run(vsce, ['package', '--no-dependencies', '--target', vsceTarget(), '--out', out], { cwd: extensionRoot });
  return out;
}

module.exports = { vsceTarget, binaryName, packageVsix };

if (require.main === module) {
  const at = process.argv.indexOf('--out');
  try {
    packageVsix(at > 0 ? { out: path.resolve(process.argv[at + 1]) } : {});
  } catch (error) {
    console.error(`package: ${error.message}`);
    process.exit(1);
  }
}
