// The preview context: defaults from the settings, the last user and session the user picked,
// and how a context is labelled. No `vscode` import; storage is any Memento-like object.

import { PreviewContext } from './protocol';

export interface KeyValueStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

export interface ContextDefaults {
  userId: string;
  sessionId: string;
  harness: string;
}

const LAST_CONTEXT_KEY = 'agentws.lastPreviewContext';

/** The context to offer first: the last one picked, else the configured defaults. */
export function initialContext(store: KeyValueStore, defaults: ContextDefaults): PreviewContext {
  const last = store.get<PreviewContext>(LAST_CONTEXT_KEY);
  return normalizeContext({
    userId: last?.userId ?? defaults.userId,
    sessionId: last?.sessionId ?? defaults.sessionId,
    harness: (last?.harness ?? defaults.harness) as PreviewContext['harness'],
  });
}

export async function rememberContext(store: KeyValueStore, context: PreviewContext): Promise<void> {
  await store.update(LAST_CONTEXT_KEY, normalizeContext(context));
}

/** Drops empty strings so the server applies its own defaults (e.g. session id = agent name). */
export function normalizeContext(context: PreviewContext): PreviewContext {
  const out: PreviewContext = {};
  for (const [key, value] of Object.entries(context)) {
    if (typeof value === 'string' && value.trim() !== '') {
      (out as Record<string, string>)[key] = value.trim();
    }
  }
  return out;
}

export function contextLabel(context: PreviewContext): string {
  const parts = [
    `user ${context.userId ?? '(none)'}`,
    `session ${context.sessionId ?? '(default)'}`,
  ];
  if (context.harness) {
    parts.push(`harness ${context.harness}`);
  }
  if (context.scope) {
    parts.push(`scope ${context.scope}`);
  }
  if (context.filesystem) {
    parts.push(`fs ${context.filesystem}`);
  }
  return parts.join(' · ');
}

/** Short form for the status bar. */
export function shortContextLabel(context: PreviewContext): string {
  const user = context.userId ?? '-';
  const session = context.sessionId ?? '-';
  return context.harness ? `${user}/${session}@${context.harness}` : `${user}/${session}`;
}

/** A file name for a virtual document that shows this context's prompt. */
export function contextFileName(context: PreviewContext): string {
  const safe = (s: string | undefined, fallback: string) =>
    (s ?? fallback).replace(/[^A-Za-z0-9._-]+/g, '_');
  const harness = context.harness ? `-${safe(context.harness, '')}` : '';
  return `prompt-${safe(context.userId, 'nouser')}-${safe(context.sessionId, 'default')}${harness}.md`;
}

/** An entry of the user (or session) picker: a stored id, or `id: undefined` to type one. */
export interface IdPickItem {
  label: string;
  description?: string;
  id: string | undefined;
}

/**
 * The picker entries for the ids a store holds: the last one used first, then the others in the
 * server's order, then an entry to type another id (a user the store does not hold yet, or none).
 */
export function idPickItems(ids: string[], current: string | undefined, kind: 'user' | 'session'): IdPickItem[] {
  const ordered = current !== undefined && ids.includes(current) ? [current, ...ids.filter((id) => id !== current)] : ids;
  const items: IdPickItem[] = ordered.map((id) => ({
    label: id,
    description: id === current ? 'in the store · last used' : 'in the store',
    id,
  }));
  items.push({
    label: kind === 'user' ? 'Other user id…' : 'Other session id…',
    description: kind === 'user' ? 'type one (empty: no user)' : 'type one (empty: the runtime default)',
    id: undefined,
  });
  return items;
}

/**
 * Parses "alice s1 2.0.2" or "user=alice session=s1 harness=2.0.2" typed into the Compare box.
 * Keys not given keep the base context's values.
 */
export function parseContextInput(input: string, base: PreviewContext): PreviewContext {
  const result: PreviewContext = { ...base };
  const positional: (keyof PreviewContext)[] = ['userId', 'sessionId', 'harness'];
  const aliases: Record<string, keyof PreviewContext> = {
    user: 'userId',
    userid: 'userId',
    session: 'sessionId',
    sessionid: 'sessionId',
    harness: 'harness',
    scope: 'scope',
    filesystem: 'filesystem',
    fs: 'filesystem',
    sandboxroot: 'sandboxRoot',
    date: 'date',
    os: 'os',
    tmpdir: 'tmpDir',
    plan: 'plan',
  };
  let index = 0;
  for (const token of input.trim().split(/\s+/).filter((t) => t !== '')) {
    const eq = token.indexOf('=');
    if (eq > 0) {
      const key = aliases[token.slice(0, eq).toLowerCase()];
      if (key === undefined) {
        throw new Error(`unknown context key "${token.slice(0, eq)}"`);
      }
      (result as Record<string, string>)[key] = token.slice(eq + 1);
    } else {
      if (index >= positional.length) {
        throw new Error(`too many values: "${token}"`);
      }
      (result as Record<string, string>)[positional[index]] = token;
      index += 1;
    }
  }
  return normalizeContext(result);
}

/** Debounces a callback; `cancel` drops a pending call (used when the panel closes). */
export function debounce(fn: () => void, ms: number): { trigger: () => void; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    trigger: () => {
      if (timer !== undefined) {
        clearTimeout(timer);
      }
      timer = setTimeout(() => {
        timer = undefined;
        fn();
      }, ms);
    },
    cancel: () => {
      if (timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
    },
  };
}
