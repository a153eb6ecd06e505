// The packaged extension: the bundle holds everything the extension needs at run time except the
// editor's own `vscode` module, and the .vsix holds only the files listed here (not node_modules),
// among them the server binary for the platform it was built on, which starts.

import { strict as assert } from 'node:assert';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { builtinModules } from 'node:module';
import { after, test } from 'node:test';

const extensionRoot = path.resolve(__dirname, '..', '..');
const repoRoot = path.resolve(extensionRoot, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const bundler = require(path.join(extensionRoot, 'esbuild.js'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const packager = require(path.join(extensionRoot, 'package-vsix.js'));
const manifest = JSON.parse(fs.readFileSync(path.join(extensionRoot, 'package.json'), 'utf8'));
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'agentws-vsix-'));
after(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
  // bin/ is only the staging folder of `npm run package`.
  fs.rmSync(path.join(extensionRoot, 'bin', 'agentws'), { force: true });
});

test('the bundle imports nothing but vscode and Node built-ins', async () => {
  const result = await bundler.bundle();
  const output = result.metafile.outputs['out/extension.js'];
  const external = output.imports.filter((i: { external?: boolean }) => i.external).map((i: { path: string }) => i.path);
  const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
  assert.deepEqual(
    [...new Set(external)].filter((p) => !builtins.has(p as string)),
    ['vscode'],
  );
  const inputs = Object.keys(result.metafile.inputs);
  assert.ok(inputs.some((i) => i.startsWith('node_modules/vscode-languageclient/')), 'the language client is inside');
  assert.ok(fs.statSync(bundler.outfile).size > 0);
});

test('the vsce target is the platform the package is built on', () => {
  const glibc = { getReport: () => ({ header: { glibcVersionRuntime: '2.36' } }) };
  const musl = { getReport: () => ({ header: {} }) };
  assert.equal(packager.vsceTarget('linux', 'x64', glibc), 'linux-x64');
  assert.equal(packager.vsceTarget('linux', 'arm64', glibc), 'linux-arm64');
  assert.equal(packager.vsceTarget('linux', 'x64', musl), 'alpine-x64');
  assert.equal(packager.vsceTarget('darwin', 'arm64', musl), 'darwin-arm64');
  assert.equal(packager.vsceTarget('win32', 'x64', musl), 'win32-x64');
  assert.throws(() => packager.vsceTarget('aix', 'ppc64', glibc), /no VS Code platform for aix-ppc64/);
});

test('the .vsix holds the bundle, the manifest, README, LICENSE, the icon, the schemas and the server, which starts', () => {
  // The server built by `cargo test` (.ci/run passes a stripped copy); `npm run package` without
  // AGENTWS_BINARY builds the release binary instead.
  const binary = process.env.AGENTWS_BINARY || path.join(repoRoot, 'target', 'debug', 'agentws');
  assert.ok(fs.existsSync(binary), `${binary} is missing: cargo build --bin agentws`);
  const vsix = packager.packageVsix({ out: path.join(scratch, 'agentws.vsix'), binary });
  const listed = cp
    .execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.length > 0)
    .sort();
  assert.deepEqual(listed, [
    '[Content_Types].xml',
    'extension.vsixmanifest',
    'extension/LICENSE.txt',
    'extension/bin/agentws',
    'extension/images/icon.png',
    'extension/out/extension.js',
    'extension/package.json',
    'extension/readme.md',
    'extension/schemas/agentws.schema.json',
    'extension/schemas/tools.schema.json',
  ]);
  // The package says which platform it is for (VS Code installs it only there).
  const vsixManifest = cp.execFileSync('unzip', ['-p', vsix, 'extension.vsixmanifest'], { encoding: 'utf8' });
  assert.match(vsixManifest, new RegExp(`TargetPlatform="${packager.vsceTarget()}"`));
  // The licence shipped is the project's.
  assert.equal(
    cp.execFileSync('unzip', ['-p', vsix, 'extension/LICENSE.txt'], { encoding: 'utf8' }),
    fs.readFileSync(path.join(repoRoot, 'LICENSE'), 'utf8'),
  );
  // The bundled server is the binary given, executable once unpacked, and starts.
  const unpacked = path.join(scratch, 'unpacked');
  cp.execFileSync('unzip', ['-q', vsix, '-d', unpacked]);
  const server = path.join(unpacked, 'extension', 'bin', 'agentws');
  assert.ok(fs.readFileSync(server).equals(fs.readFileSync(binary)));
  assert.equal(fs.statSync(server).mode & 0o111, 0o111, 'executable');
  assert.equal(cp.execFileSync(server, ['--version'], { encoding: 'utf8' }), `agentws ${manifest.version}\n`);
});

test('the manifest links to the crate\'s repository, which the server\'s rule links come from', () => {
  const cargo = fs.readFileSync(path.join(repoRoot, 'Cargo.toml'), 'utf8');
  const repository = /^repository = "(https:\/\/[^"]+)"$/m.exec(cargo)?.[1];
  assert.ok(repository, 'Cargo.toml [workspace.package] repository');
  assert.equal(manifest.repository.url, `${repository}.git`);
  for (const url of [manifest.homepage, manifest.bugs.url]) {
    assert.ok(url.startsWith(`${repository}/`), url);
  }
  assert.ok(fs.statSync(path.join(extensionRoot, manifest.icon)).size > 0);
});
