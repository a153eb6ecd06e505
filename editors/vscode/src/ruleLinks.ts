// Where a diagnostic's rule code links to. The server links each code to the rule's section of
// docs/rules.md on the web (`codeDescription`); by default the extension points the link at the
// Explain Rule command instead, which shows `agentws explain CODE` from the same binary inside
// VS Code, so the link works offline and always matches the server's version. No `vscode` import.

export type RuleLinks = 'editor' | 'web';

/** The value of the `agentws.ruleLinks` setting; anything unknown is the default. */
export function ruleLinksSetting(value: unknown): RuleLinks {
  return value === 'web' ? 'web' : 'editor';
}

/** A `command:` URI that runs Explain Rule for `code` (VS Code opens these from the Problems panel and hovers). */
export function explainCommandUri(command: string, code: string): string {
  return `command:${command}?${encodeURIComponent(JSON.stringify([code]))}`;
}

/** The rule code of an agentws diagnostic (`code` as a string, a number or `{value}`), else undefined. */
export function agentwsCode(diagnostic: { source?: string; code?: unknown }): string | undefined {
  if (diagnostic.source !== undefined && diagnostic.source !== 'agentws') {
    return undefined;
  }
  const code = diagnostic.code;
  const value = typeof code === 'object' && code !== null ? (code as { value?: unknown }).value : code;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}
