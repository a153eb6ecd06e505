// The static configuration files: the JSON schemas (validated with ajv against real documents)
// and the Helix languages.toml snippet (parsed with Python's tomllib, globs checked on real paths).

import { strict as assert } from 'node:assert';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import Ajv from 'ajv';

const extensionRoot = path.resolve(__dirname, '..', '..');
const repoRoot = path.resolve(extensionRoot, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(extensionRoot, 'package.json'), 'utf8'));
const fixtureProject = path.join(repoRoot, 'tests', 'fixtures', 'editors-basic');

/** TOML → JSON through Python's tomllib (3.11+), so the test needs no TOML package. */
function parseToml(file: string): Record<string, unknown> {
  const out = cp.execFileSync(
    'python3',
    ['-c', 'import json, sys, tomllib; print(json.dumps(tomllib.load(open(sys.argv[1], "rb"))))', file],
    { encoding: 'utf8' },
  );
  return JSON.parse(out);
}

function schema(name: string) {
  const ajv = new Ajv({ allErrors: true, strict: false });
  return ajv.compile(JSON.parse(fs.readFileSync(path.join(extensionRoot, 'schemas', name), 'utf8')));
}

test('package.json points jsonValidation and tomlValidation at schema files that exist', () => {
  const [json] = manifest.contributes.jsonValidation;
  const [toml] = manifest.contributes.tomlValidation;
  assert.equal(json.fileMatch, '**/.agentscope/workspace/tools.json');
  assert.equal(toml.fileMatch, 'agentws.toml');
  for (const entry of [json, toml]) {
    assert.ok(fs.existsSync(path.join(extensionRoot, entry.url)), entry.url);
  }
});

test('tools.schema.json accepts what the runtime accepts', () => {
  const validate = schema('tools.schema.json');
  const fixture = JSON.parse(fs.readFileSync(path.join(fixtureProject, '.agentscope/workspace/tools.json'), 'utf8'));
  assert.ok(validate(fixture), JSON.stringify(validate.errors));
  for (const doc of [
    {},
    { allow: [], mcpServers: { off: null } },
    { mcpServers: { web: { transport: 'Streamable-HTTP', url: 'https://x', headers: { A: 'b' }, timeout: 30 } } },
    { mcpServers: { web: { transport: 'streamableHttp', url: 'https://x', initializationTimeout: 'PT1M30S' } } },
    { allow: ['read_file', 1, true], '// available': ['anything'] },
  ]) {
    assert.ok(validate(doc), `${JSON.stringify(doc)}: ${JSON.stringify(validate.errors)}`);
  }
});

test('tools.schema.json rejects what makes the runtime drop a server or the whole file', () => {
  const validate = schema('tools.schema.json');
  for (const doc of [
    { allow: 'read_file' },
    { mcpServers: [] },
    { mcpServers: { a: { transport: 'streamable_http', url: 'https://x' } } },
    { mcpServers: { a: { command: 'x' } } },
    { mcpServers: { a: { transport: 'stdio' } } },
    { mcpServers: { a: { transport: 'SSE' } } },
    { mcpServers: { a: { transport: 'stdio', command: 'x', timeout: '30s' } } },
  ]) {
    assert.equal(validate(doc), false, `${JSON.stringify(doc)} should be rejected`);
  }
});

test('agentws.schema.json accepts the documented example and the fixture, rejects unknown keys', () => {
  const validate = schema('agentws.schema.json');
  for (const file of [
    path.join(extensionRoot, 'test', 'fixtures', 'agentws-full.toml'),
    path.join(fixtureProject, 'agentws.toml'),
  ]) {
    const doc = parseToml(file);
    assert.ok(validate(doc), `${file}: ${JSON.stringify(validate.errors)}`);
  }
  // The runtime's versions as map_version reads them (server/src/config/release.rs).
  for (const harness of ['2.0.2', '2.0.4', '2.1.0-SNAPSHOT', 'main', '2026-09', { release: '2.0.3', pending: ['3645', '#3020'] }]) {
    assert.ok(validate({ harness }), `${JSON.stringify(harness)}: ${JSON.stringify(validate.errors)}`);
  }
  for (const doc of [
    { harness: '2026-10' },
    { harness: 'v2' },
    { harness: { release: '2026-10' } },
    { harness: { pending: ['9999'] } },
    { isolation: { scope: 'team' } },
    { agent: { max_context_tokens: '8000' } },
    { agent: { system_prompt: 'a', system_prompt_file: 'b' } },
    { features: { plan_mode: 'yes' } },
    { filesystem: { mode: 'local', extra: 1 } },
    { worksapce: '.agentscope/workspace' },
  ]) {
    assert.equal(validate(doc), false, `${JSON.stringify(doc)} should be rejected`);
  }
});

// Helix's glob rule: a relative glob that does not start with a wildcard gets "*/" in front.
function helixGlobMatches(glob: string, file: string): boolean {
  const anchored = glob.startsWith('/') || glob.startsWith('*') ? glob : `*/${glob}`;
  let re = '';
  for (let i = 0; i < anchored.length; i++) {
    const c = anchored[i];
    if (c === '*' && anchored[i + 1] === '*') {
      re += '.*';
      i += 1;
      if (anchored[i + 1] === '/') {
        re += '/?';
        i += 1;
      }
    } else if (c === '*') {
      // globset's default: `*` crosses `/` (literal_separator = false), as Helix uses it.
      re += '.*';
    } else {
      re += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${re}$`).test(file);
}

test('the Helix languages.toml parses and routes workspace files to agentws', () => {
  const helix = path.join(repoRoot, 'editors', 'helix');
  const config = parseToml(path.join(helix, 'languages.toml')) as {
    'language-server': Record<string, { command: string; args: string[]; config?: unknown }>;
    language: { name: string; grammar: string; 'file-types': { glob: string }[]; 'language-servers': string[] }[];
  };
  assert.deepEqual(config['language-server'].agentws, {
    command: 'agentws',
    args: ['serve'],
    config: { profile: 'harness' },
  });
  const languageFor = (file: string) =>
    config.language.find((l) => l['file-types'].some((ft) => helixGlobMatches(ft.glob, file)))?.name;
  const ws = '/home/u/proj/.agentscope/workspace';
  assert.equal(languageFor(`${ws}/skills/pdf/SKILL.md`), 'agentws-skill');
  assert.equal(languageFor(`${ws}/alice/skills/pdf/SKILL.md`), 'agentws-skill');
  assert.equal(languageFor(`${ws}/subagents/reviewer.md`), 'agentws-subagent');
  assert.equal(languageFor(`${ws}/alice/subagents/reviewer.md`), 'agentws-subagent');
  assert.equal(languageFor(`${ws}/AGENTS.md`), 'agentws-agents');
  assert.equal(languageFor(`${ws}/tools.json`), 'agentws-tools');
  assert.equal(languageFor('/home/u/proj/agentws.toml'), 'agentws-config');
  assert.equal(languageFor('/home/u/proj/README.md'), undefined);
  assert.equal(languageFor('/home/u/proj/package.json'), undefined);
  for (const language of config.language) {
    assert.equal(language['language-servers'][0], 'agentws', language.name);
    assert.ok(['markdown', 'json', 'toml'].includes(language.grammar), language.name);
    const queries = path.join(helix, 'runtime', 'queries', language.name, 'highlights.scm');
    assert.equal(fs.readFileSync(queries, 'utf8'), `; inherits: ${language.grammar}\n`, queries);
  }
});

test('the Helix block of docs/editors.md runs as written on a machine without ~/.config/helix', () => {
  const doc = fs.readFileSync(path.join(repoRoot, 'docs', 'editors.md'), 'utf8');
  const helix = doc.slice(doc.indexOf('\n## Helix\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(helix)?.[1];
  assert.ok(block?.includes('hx --health'), 'the Helix shell block');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agentws-helix-'));
  try {
    // Helix itself is not installed here: a stand-in `hx` records that the block reached it.
    const bin = path.join(home, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'hx'), '#!/bin/sh\necho "hx $*" > "$HOME/hx-ran"\n', { mode: 0o755 });
    cp.execFileSync('bash', ['-euc', block as string], {
      cwd: repoRoot,
      env: { ...process.env, HOME: home, PATH: `${bin}:${process.env.PATH}` },
    });
    assert.equal(fs.readFileSync(path.join(home, 'hx-ran'), 'utf8'), 'hx --health agentws-skill\n');
    const config = path.join(home, '.config', 'helix');
    assert.equal(
      fs.readFileSync(path.join(config, 'languages.toml'), 'utf8'),
      fs.readFileSync(path.join(repoRoot, 'editors', 'helix', 'languages.toml'), 'utf8'),
    );
    assert.deepEqual(
      fs.readdirSync(path.join(config, 'runtime', 'queries')).sort(),
      fs.readdirSync(path.join(repoRoot, 'editors', 'helix', 'runtime', 'queries')).sort(),
    );
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
