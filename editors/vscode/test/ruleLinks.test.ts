// Where rule codes link to: the Explain Rule command (default) or the server's web link.

import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { agentwsCode, explainCommandUri, ruleLinksSetting } from '../src/ruleLinks';

test('a rule code links to Explain Rule with the code as its argument', () => {
  const uri = explainCommandUri('agentws.explainRule', 'SK006');
  assert.equal(uri, 'command:agentws.explainRule?%5B%22SK006%22%5D');
  assert.deepEqual(JSON.parse(decodeURIComponent(uri.split('?')[1])), ['SK006']);
});

test('only agentws diagnostics have their code read, in any of its forms', () => {
  assert.equal(agentwsCode({ source: 'agentws', code: 'TJ012' }), 'TJ012');
  assert.equal(agentwsCode({ source: 'agentws', code: { value: 'TJ012', target: 'https://x' } }), 'TJ012');
  assert.equal(agentwsCode({ code: 7 }), '7');
  assert.equal(agentwsCode({ source: 'json', code: 'TJ012' }), undefined);
  assert.equal(agentwsCode({ source: 'agentws' }), undefined);
});

test('the ruleLinks setting defaults to the editor', () => {
  assert.equal(ruleLinksSetting(undefined), 'editor');
  assert.equal(ruleLinksSetting('nonsense'), 'editor');
  assert.equal(ruleLinksSetting('web'), 'web');
});
