// Bundles the extension with its one runtime dependency (vscode-languageclient) into a single file,
// out/extension.js, so the .vsix ships a handful of files instead of node_modules. `vscode` is
// provided by the editor. Used by `npm run bundle` (and so `vsce package`) and by test/package.test.ts.
const path = require('path');
const esbuild = require('esbuild');

const options = {
  absWorkingDir: __dirname,
  entryPoints: ['src/extension.ts'],
  outfile: 'out/extension.js',
  bundle: true,
  external: ['vscode'],
  format: 'cjs',
  platform: 'node',
  // VS Code 1.82 (the oldest the manifest accepts) runs extensions on Node 18.
  target: 'node18',
  minify: true,
  sourcemap: 'external',
  metafile: true,
  logLevel: 'warning',
};

module.exports = { options, outfile: path.join(__dirname, options.outfile), bundle: () => esbuild.build(options) };

if (require.main === module) {
  esbuild.build(options).catch(() => process.exit(1));
}
