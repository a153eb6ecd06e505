// The packaged extension: the bundle holds everything the extension needs at run time except the
// editor's own `vscode` module, and the .vsix holds only the files listed here (not node_modules).

import { strict as assert } from 'node:assert';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { builtinModules } from 'node:module';
import { test } from 'node:test';

const extensionRoot = path.resolve(__dirname, '..', '..');
const repoRoot = path.resolve(extensionRoot, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const bundler = require(path.join(extensionRoot, 'esbuild.js'));

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

test('the .vsix holds the bundle, the manifest, README, LICENSE and the schemas', async () => {
  await bundler.bundle();
  const vsce = path.join(extensionRoot, 'node_modules', '.bin', 'vsce');
  const listed = cp
    .execFileSync(vsce, ['ls', '--no-dependencies'], { cwd: extensionRoot, encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.length > 0)
    .sort();
  assert.deepEqual(listed, [
    'LICENSE',
    'README.md',
    'bin/.gitignore',
    'out/extension.js',
    'package.json',
    'schemas/agentws.schema.json',
    'schemas/tools.schema.json',
  ]);
  // The licence shipped is the project's.
  assert.equal(
    fs.readFileSync(path.join(extensionRoot, 'LICENSE'), 'utf8'),
    fs.readFileSync(path.join(repoRoot, 'LICENSE'), 'utf8'),
  );
});
