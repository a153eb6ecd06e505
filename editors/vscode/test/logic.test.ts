// Unit tests of the extension's pure modules: preview JSON normalisation, binary lookup, context
// handling, file patterns and HTML helpers.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { findBinary } from '../src/binary';
import { contextFileName, contextLabel, debounce, initialContext, parseContextInput, rememberContext } from '../src/context';
import { isServerFile, resolveSourcePath } from '../src/files';
import { barPercent, escapeHtml, previewUpdate, renderPreviewHtml, sourceLabel, TextSplice, textSplice } from '../src/previewHtml';
import {
  applyPreviewEdits,
  HeldPreview,
  sliceByBytes,
  storeDocumentUri,
  takePreviewAnswer,
  toPreviewModel,
  toStoreChecks,
  toStoreDocument,
  utf16Index,
} from '../src/protocol';

const fixture = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', '..', 'test', 'fixtures', 'preview.json'), 'utf8'),
);

test('sliceByBytes cuts by UTF-8 offsets, not UTF-16 indices', () => {
  const text = 'a😀b回c';
  // 'a' = 1 byte, emoji = 4 bytes, 'b' = 1, '回' = 3, 'c' = 1.
  assert.equal(sliceByBytes(text, 1, 5), '😀');
  assert.equal(sliceByBytes(text, 5, 9), 'b回');
  assert.equal(sliceByBytes(text, 9, 10), 'c');
  assert.equal(sliceByBytes(text, 9, 100), 'c', 'past the end is clamped');
  // An offset inside a character is a server bug; it shows as U+FFFD instead of being hidden.
  assert.equal(sliceByBytes(text, 8, 10), '\uFFFDc');
  assert.equal(sliceByBytes(text, 7, 3), '', 'an inverted range is empty');
});

test('utf16Index finds the index of every byte offset between characters, and no other', () => {
  // One, two, three and four bytes (a surrogate pair), and runs long enough that the search steps.
  const pieces = ['a', 'é', '回', '😀', 'xyz'.repeat(40), '回'.repeat(30), '😀'.repeat(20)];
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let round = 0; round < 40; round++) {
    let text = '';
    while (text.length < 300) {
      text += pieces[Math.floor(random() * pieces.length)];
    }
    // The expected index of each offset: walk the characters, counting their bytes.
    const expected = new Map<number, number>();
    let byte = 0;
    for (let index = 0; index < text.length; ) {
      expected.set(byte, index);
      const char = String.fromCodePoint(text.codePointAt(index)!);
      byte += Buffer.byteLength(char);
      index += char.length;
    }
    expected.set(byte, text.length);
    for (let offset = 0; offset <= byte; offset++) {
      assert.equal(utf16Index(text, offset), expected.get(offset), `offset ${offset} of ${JSON.stringify(text)}`);
    }
    assert.equal(utf16Index(text, byte + 5), text.length, 'past the end is the end');
    // Counted on from a known place, the same answers.
    const from = { index: expected.get(100) ?? 0, byte: expected.has(100) ? 100 : 0 };
    for (let offset = from.byte; offset <= byte; offset += 7) {
      assert.equal(utf16Index(text, offset, from), expected.get(offset), `offset ${offset} from ${JSON.stringify(from)}`);
    }
  }
});

test('toPreviewModel reads the fixture preview with exact section bodies', () => {
  const model = toPreviewModel(fixture);
  assert.equal(model.sections.length, 11);
  assert.deepEqual(
    model.sections.map((s) => s.title).slice(0, 3),
    ['System prompt', 'Session context', 'Domain knowledge'],
  );
  assert.equal(model.sections[0].body, 'You are a helpful assistant.\n');
  const agents = model.sections[6];
  assert.equal(agents.title, 'Loaded context: AGENTS.md');
  assert.equal(
    agents.body,
    '<loaded_context>\n  <agents_context>\n  # Assistant (alice)\n  Be concise. 回答は簡潔に。\n  </agents_context>\n',
  );
  assert.deepEqual(agents.sources, [{ path: '.agentscope/workspace/alice/AGENTS.md', startLine: 1, endLine: 2 }]);
  // The sections tile the text: their bodies joined are the whole prompt.
  assert.equal(model.sections.map((s) => s.body).join(''), model.text);
  assert.deepEqual(model.budget, { max: 500, used: 472, memoryTruncated: true });
  assert.equal(model.notes.length, 3);
});

test('toPreviewModel reads exactly the field names the server sends', () => {
  const model = toPreviewModel({
    text: 'héllo world',
    sections: [
      {
        kind: 'agents-context',
        label: 'AGENTS.md',
        range: { start: 0, end: 6 },
        sources: [{ path: '/abs/AGENTS.md', lines: { start: 2, end: 4 } }, { path: 'x.md', lines: null }, { nope: 1 }],
        estimatedTokens: 2,
      },
      // Other spellings are not read: the fields they stand for come out empty.
      { name: 'rest', bytes: { startByte: 6, endByte: 12 }, files: [{ file: 'y.md' }], tokens: 3 },
      'garbage',
    ],
    budget: { maxTokens: 8000, usedTokens: 10, memoryTruncated: true },
    notes: [{ code: 'locale', message: 'from an object' }, { text: 'old' }, 'plain', 42],
  });
  assert.deepEqual(
    model.sections.map((s) => [s.title, s.kind, s.start, s.end, s.body, s.tokens]),
    [
      ['AGENTS.md', 'agents-context', 0, 6, 'héllo', 2],
      ['section', '', 0, 0, '', 0],
    ],
  );
  assert.deepEqual(model.sections[0].sources, [
    { path: '/abs/AGENTS.md', startLine: 2, endLine: 4 },
    { path: 'x.md', startLine: 1, endLine: 1 },
  ]);
  assert.deepEqual(model.sections[1].sources, []);
  assert.deepEqual(model.budget, { max: 0, used: 10, memoryTruncated: false });
  assert.deepEqual(model.notes, ['from an object']);
  assert.throws(() => toPreviewModel(null), /no object/);
});

function lookup(overrides: Partial<Parameters<typeof findBinary>[0]>, executables: string[]) {
  return findBinary({
    settingPath: undefined,
    workspaceFolder: '/proj',
    extensionPath: '/ext',
    envPath: '/usr/local/bin:/usr/bin',
    platform: 'linux',
    isExecutable: (file) => executables.includes(file),
    ...overrides,
  });
}

test('findBinary: setting, then bundled, then PATH', () => {
  const all = ['/opt/agentws', '/ext/bin/agentws', '/usr/bin/agentws'];
  assert.deepEqual(lookup({ settingPath: '/opt/agentws' }, all), { ok: true, path: '/opt/agentws', source: 'setting' });
  assert.deepEqual(lookup({ settingPath: '  ' }, all), { ok: true, path: '/ext/bin/agentws', source: 'bundled' });
  assert.deepEqual(lookup({}, ['/usr/bin/agentws']), { ok: true, path: '/usr/bin/agentws', source: 'PATH' });
  assert.deepEqual(lookup({ settingPath: 'target/debug/agentws' }, ['/proj/target/debug/agentws']), {
    ok: true,
    path: '/proj/target/debug/agentws',
    source: 'setting',
  });
  assert.deepEqual(
    lookup({ platform: 'win32', envPath: 'C:\\bin;', extensionPath: '/e' }, [path.join('C:\\bin', 'agentws.exe')]),
    { ok: true, path: path.join('C:\\bin', 'agentws.exe'), source: 'PATH' },
  );
});

test('findBinary: a wrong setting is an error, not a silent fallback', () => {
  const result = lookup({ settingPath: '/nope/agentws' }, ['/usr/bin/agentws']);
  assert.equal(result.ok, false);
  assert.match((result as { message: string }).message, /"agentws\.path" names \/nope\/agentws/);
});

test('findBinary: nothing found says how to fix it', () => {
  const result = lookup({}, []);
  assert.equal(result.ok, false);
  const message = (result as { message: string }).message;
  assert.match(message, /cargo install --path server/);
  assert.match(message, /"agentws\.path"/);
});

class MemoryStore {
  values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

test('initialContext offers the settings first, then the last context picked', async () => {
  const store = new MemoryStore();
  const defaults = { userId: 'alice', sessionId: '', harness: '2026-09' };
  assert.deepEqual(initialContext(store, defaults), { userId: 'alice', harness: '2026-09' });
  await rememberContext(store, { userId: 'bob', sessionId: ' s2 ', harness: undefined });
  assert.deepEqual(initialContext(store, defaults), { userId: 'bob', sessionId: 's2', harness: '2026-09' });
});

test('parseContextInput: positional and key=value forms', () => {
  const base = { userId: 'alice', sessionId: 's1' };
  assert.deepEqual(parseContextInput('bob', base), { userId: 'bob', sessionId: 's1' });
  assert.deepEqual(parseContextInput('bob s2 2026-08', base), { userId: 'bob', sessionId: 's2', harness: '2026-08' });
  assert.deepEqual(parseContextInput('harness=2026-08 fs=sandbox', base), {
    userId: 'alice',
    sessionId: 's1',
    harness: '2026-08',
    filesystem: 'sandbox',
  });
  assert.deepEqual(parseContextInput('user=', base), { sessionId: 's1' });
  assert.throws(() => parseContextInput('colour=red', base), /unknown context key "colour"/);
  assert.throws(() => parseContextInput('a b c d', base), /too many values: "d"/);
});

test('context labels and virtual file names', () => {
  assert.equal(contextLabel({ userId: 'alice', sessionId: 's1', harness: '2026-08' }), 'user alice · session s1 · harness 2026-08');
  assert.equal(contextLabel({}), 'user (none) · session (default)');
  assert.equal(contextFileName({ userId: 'a/b', sessionId: 's 1' }), 'prompt-a_b-s_1.md');
  assert.equal(contextFileName({ harness: '2026-08' }), 'prompt-nouser-default-2026-08.md');
});

test('debounce runs once for a burst and not at all after cancel', async () => {
  let calls = 0;
  const d = debounce(() => (calls += 1), 1);
  d.trigger();
  d.trigger();
  d.trigger();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(calls, 1);
  d.trigger();
  d.cancel();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(calls, 1);
});

test('isServerFile matches the document selector patterns', () => {
  for (const yes of [
    '/p/.agentscope/workspace/skills/pdf/SKILL.md',
    '/p/.agentscope/workspace/subagents/reviewer.md',
    '/p/.agentscope/workspace/tools.json',
    '/p/.agentscope/workspace/MEMORY.md',
    '/p/.agentscope/workspace/knowledge/faq.md',
    'C:\\p\\.agentscope\\workspace\\alice\\AGENTS.md',
    '/p/agentws.toml',
  ]) {
    assert.equal(isServerFile(yes), true, yes);
  }
  for (const no of ['/p/README.md', '/p/src/main.rs', '/p/subagents/nested/x.md', '/p/package.json']) {
    assert.equal(isServerFile(no), false, no);
  }
});

test('resolveSourcePath joins relative sources to the project folder', () => {
  assert.equal(resolveSourcePath('skills/a/SKILL.md', '/proj'), path.join('/proj', 'skills/a/SKILL.md'));
  assert.equal(resolveSourcePath('/abs/x.md', '/proj'), '/abs/x.md');
  assert.equal(resolveSourcePath('x.md', undefined), 'x.md');
});

test('HTML helpers: escaping, bar widths, source labels', () => {
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  assert.equal(escapeHtml('a\r\nb\rc'), 'a&#13;\nb&#13;c');
  assert.equal(barPercent(472, 500), 94.4);
  assert.equal(barPercent(900, 500), 100);
  assert.equal(barPercent(10, 0), 0);
  assert.equal(sourceLabel({ path: 'a.md', startLine: 3, endLine: 3 }), 'a.md:3');
  assert.equal(sourceLabel({ path: 'a.md', startLine: 3, endLine: 9 }), 'a.md:3-9');
});

test('a stored file\'s document URI is spelt as the server spells it', () => {
  // The same location as the server's SARIF test, and the URI tests/e2e/store_documents.rs expects.
  assert.equal(
    storeDocumentUri('store:agents/bot/users/a b/skills:/x/SKILL.md'),
    'agentws-store:///agents/bot/users/a%20b/skills%3A/x/SKILL.md',
  );
  assert.equal(storeDocumentUri('store:global/root:/AGENTS.md'), 'agentws-store:///global/root%3A/AGENTS.md');
  assert.equal(storeDocumentUri('store:agents/ü/users/x~y/root:/K.md'), 'agentws-store:///agents/%C3%BC/users/x~y/root%3A/K.md');
  assert.deepEqual(toStoreDocument({ origin: 'store:g/root:/A.md', text: 'x' }), { origin: 'store:g/root:/A.md', text: 'x' });
  assert.throws(() => toStoreDocument({ origin: 'o' }), /returned no text/);
  assert.deepEqual(toStoreChecks([{ project: '/p', store: 'sqlite://s.db', owners: 2, files: 5, diagnostics: 1, notes: [] }]), [
    { project: '/p', store: 'sqlite://s.db', owners: 2, files: 5, diagnostics: 1 },
  ]);
});

test('a source read from the store is marked in the page', () => {
  const model = toPreviewModel(fixture);
  model.sections[1].sources = [
    { path: 'store:agents/bot/users/alice/root:/AGENTS.md', startLine: 1, endLine: 2 },
    { path: 'AGENTS.md', startLine: 1, endLine: 1 },
  ];
  const html = renderPreviewHtml(model, { contextLabel: 'user alice', nonce: 'N', cspSource: '', version: 1 });
  assert.ok(
    html.includes(
      '<a class="source stored" title="read from the store (opens read-only)" href="#" ' +
        'data-path="store:agents/bot/users/alice/root:/AGENTS.md" data-line="1"><span class="badge">store</span>' +
        'store:agents/bot/users/alice/root:/AGENTS.md:1-2</a> <a class="source" href="#" data-path="AGENTS.md" data-line="1">AGENTS.md:1</a>',
    ),
    html,
  );
});

test('renderPreviewHtml escapes prompt text and labels every section', () => {
  const html = renderPreviewHtml(toPreviewModel(fixture), { contextLabel: 'user <alice>', nonce: 'N0NCE', cspSource: '', version: 7 });
  assert.match(html, /<div id="root" data-version="7">/);
  assert.equal((html.match(/<details class="section"/g) ?? []).length, 11);
  assert.match(html, /user &lt;alice&gt;/);
  assert.match(html, /&lt;loaded_context&gt;/);
  assert.doesNotMatch(html, /<loaded_context>/);
  assert.match(html, /script-src 'nonce-N0NCE'/);
  assert.match(html, /data-path="\.agentscope\/workspace\/skills\/pdf\/SKILL\.md" data-line="1"/);
  assert.match(html, /MEMORY\.md cut to fit the budget/);
});

/** `text` with `splice` applied, as the page applies it. */
const spliceText = (text: string, splice: TextSplice) =>
  text.slice(0, splice.start) + splice.insert + text.slice(splice.start + splice.deleteCount);

test('a preview update carries only what changed: summaries, links when they moved, the span of text', () => {
  const shown = toPreviewModel(fixture);
  const same = previewUpdate(shown, toPreviewModel(fixture), 'user alice', 3, 4);
  assert.deepEqual([same.type, same.from, same.to, same.count, same.sections], ['update', 3, 4, 11, []]);
  assert.match(same.header, /^<header>[^]*user alice[^]*<\/header>$/);
  assert.match(same.notes, /<section class="notes">/);

  // Section 6's text changes (markup in it is text), section 2's tokens only, section 4's links;
  // the last section goes.
  const edited = structuredClone(shown);
  const sixth = shown.sections[6].body;
  edited.sections[6].body = `${sixth.slice(0, 20)}<b>new</b> & more${sixth.slice(22)}`;
  edited.sections[2].tokens += 1;
  edited.sections[4].sources = [{ path: 'x.md', startLine: 2, endLine: 3 }];
  edited.sections.pop();
  const update = previewUpdate(shown, edited, 'user alice', 4, 5);
  assert.equal(update.count, 10);
  // The prompt's size changed, so every share did: every summary is sent, and only the links and
  // the text that changed.
  assert.deepEqual(
    update.sections.map((s) => [s.index, s.sources !== undefined, s.splice !== undefined, s.text]),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => [i, i === 4, i === 6, undefined]),
  );
  assert.match(update.sections[2].summary, new RegExp(`^<summary>[^]*≈${edited.sections[2].tokens} tokens[^]*</summary>$`));
  assert.equal(update.sections[4].sources, '<div class="sources"><a class="source" href="#" data-path="x.md" data-line="2">x.md:2-3</a></div>');
  const splice = update.sections[6].splice!;
  assert.ok(splice.start >= 20 && splice.deleteCount <= 2 && splice.insert.length <= '<b>new</b> & more'.length, JSON.stringify(splice));
  assert.equal(spliceText(shown.sections[6].body, splice), edited.sections[6].body);

  // Sections the page lacks come whole.
  const grown = previewUpdate(edited, shown, 'user alice', 5, 6);
  assert.deepEqual(grown.sections.at(-1), {
    index: 10,
    summary: grown.sections.at(-1)!.summary,
    sources: grown.sections.at(-1)!.sources,
    text: shown.sections[10].body,
  });
  assert.match(grown.sections.at(-1)!.sources!, /^<div class="sources">/);

  // A new memory budget changes the MEMORY.md section's summary alone (the bars are shares of
  // the prompt): only it is sent again.
  const budget = structuredClone(shown);
  budget.budget.max += 100;
  const bars = previewUpdate(shown, budget, 'user alice', 6, 7);
  assert.deepEqual(
    bars.sections.map((s) => [s.index, s.sources, s.splice, s.text]),
    [[7, undefined, undefined, undefined]],
  );
  assert.match(bars.sections[0].summary, /cut to fit the 600-token memory budget/);
});

test('textSplice finds the one span that changed, across and within blocks', () => {
  assert.deepEqual(textSplice('abcdef', 'abXYef'), { start: 2, deleteCount: 2, insert: 'XY' });
  assert.deepEqual(textSplice('abc', 'abc'), { start: 3, deleteCount: 0, insert: '' });
  assert.deepEqual(textSplice('aaa', 'aaaa'), { start: 3, deleteCount: 0, insert: 'a' });
  assert.deepEqual(textSplice('abcd', 'ad'), { start: 1, deleteCount: 2, insert: '' });
  assert.deepEqual(textSplice('', 'new'), { start: 0, deleteCount: 0, insert: 'new' });
  // Texts of several blocks, changed at their start, end, a block boundary and in the middle.
  const base = Array.from({ length: 5000 }, (_, i) => `line ${i} 回😀\n`).join('');
  for (const at of [0, 1, 4095, 4096, 4097, 20000, base.length - 1, base.length]) {
    for (const [deleted, inserted] of [[0, 'X'], [3, ''], [2, 'YZ😀'], [9000, 'long']] as const) {
      const after = base.slice(0, at) + inserted + base.slice(Math.min(base.length, at + deleted));
      const splice = textSplice(base, after);
      assert.equal(spliceText(base, splice), after, `at ${at}, ${deleted} deleted, ${JSON.stringify(inserted)} inserted`);
      assert.ok(splice.deleteCount <= deleted && splice.insert.length <= inserted.length, JSON.stringify(splice).slice(0, 80));
    }
  }
});

test('preview edits splice strings by UTF-8 bytes, lists by elements, and set and remove keys', () => {
  const answer = {
    text: 'a回b😀c',
    sections: [{ range: { start: 0, end: 1 } }, { range: { start: 1, end: 4 } }],
    notes: ['x'],
    budget: { truncated: false },
  };
  const given = JSON.stringify(answer);
  const edited = applyPreviewEdits(answer, [
    // '回' is bytes 1..4: replaced by 'ZZ'; the emoji (bytes 5..9) is kept.
    { op: 'splice', path: ['text'], start: 1, deleteCount: 3, insert: 'ZZ' },
    { op: 'set', path: ['sections', 1, 'range', 'end'], value: 3 },
    { op: 'splice', path: ['sections'], start: 0, deleteCount: 1, insert: [] },
    { op: 'splice', path: ['notes'], start: 1, deleteCount: 0, insert: ['y', 'z'] },
    { op: 'remove', path: ['budget', 'truncated'] },
    { op: 'set', path: ['budget', 'cut'], value: null },
  ]);
  assert.deepEqual(edited, {
    text: 'aZZb😀c',
    sections: [{ range: { start: 1, end: 3 } }],
    notes: ['x', 'y', 'z'],
    budget: { cut: null },
  });
  assert.equal(JSON.stringify(answer), given, 'the answer given is left as it was');
  assert.throws(() => applyPreviewEdits({ text: 'ab' }, [{ op: 'splice', path: ['text'], start: 1, deleteCount: 5, insert: '' }]), /outside the string/);
  // Byte 2 is inside '回' (bytes 1..4), at either end of the cut.
  assert.throws(() => applyPreviewEdits({ text: 'a回b' }, [{ op: 'splice', path: ['text'], start: 2, deleteCount: 0, insert: 'x' }]), /inside a character/);
  assert.throws(() => applyPreviewEdits({ text: 'a回b' }, [{ op: 'splice', path: ['text'], start: 0, deleteCount: 2, insert: 'x' }]), /inside a character/);
  // Surrogate pairs kept whole on both sides of a cut between two emoji.
  assert.deepEqual(
    applyPreviewEdits({ text: '😀😀' }, [{ op: 'splice', path: ['text'], start: 4, deleteCount: 0, insert: '回' }]),
    { text: '😀回😀' },
  );
  assert.throws(() => applyPreviewEdits({ text: 'ab' }, [{ op: 'set', path: ['nope', 'deeper'], value: 1 }]), /does not apply/);
});

test('what no edit touched keeps its identity, and the model reuses the sources read from it', () => {
  const answer = {
    text: 'ab',
    sections: [
      { title: 'one', range: { start: 0, end: 1 }, sources: [{ path: 'a.md', lines: { start: 1, end: 2 } }], tokens: 1 },
      { title: 'two', range: { start: 1, end: 2 }, sources: [{ path: 'b.md', lines: { start: 3, end: 4 } }], tokens: 1 },
    ],
  };
  const first = toPreviewModel(answer);
  const edited = applyPreviewEdits(answer, [{ op: 'set', path: ['sections', 0, 'sources', 0, 'lines', 'end'], value: 9 }]) as typeof answer;
  assert.notEqual(edited.sections[0].sources, answer.sections[0].sources);
  assert.equal(edited.sections[1], answer.sections[1]);
  assert.equal(answer.sections[0].sources[0].lines.end, 2, 'the answer given is left as it was');
  const second = toPreviewModel(edited);
  assert.deepEqual(second.sections[0].sources, [{ path: 'a.md', startLine: 1, endLine: 9 }], 'an edited list is read again');
  assert.equal(second.sections[1].sources, first.sections[1].sources, 'an untouched list is not read again');
});

test('a held preview takes whole answers and edits of the one it holds, and refuses others', () => {
  const held: HeldPreview = { resultId: null, answer: undefined };
  assert.deepEqual(takePreviewAnswer(held, { resultId: 'p1', text: 'one' }), { text: 'one' });
  assert.equal(held.resultId, 'p1');
  const edits = [{ op: 'set', path: ['text'], value: 'two' }];
  assert.deepEqual(takePreviewAnswer(held, { resultId: 'p2', previousResultId: 'p1', edits }), { text: 'two' });
  assert.equal(held.resultId, 'p2');
  // Edits of an answer it does not hold: refused, and the next call asks whole.
  assert.throws(() => takePreviewAnswer(held, { resultId: 'p4', previousResultId: 'p3', edits }), /does not hold/);
  assert.deepEqual(held, { resultId: null, answer: undefined });
});
