// The connection to Ollama in words: what a check of an address found, and the states the
// backend computes (app/connection.go) that keep the conversation on screen.
import type { OllamaCheck, SetupState } from './backend';
import { isKey, type MessageKey } from './i18n.svelte';

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** What a check found, in words: the server and its models, or why the address cannot be used. */
export function checkLine(c: OllamaCheck, t: Translate): string {
  if (c.ok) return t('conn.found', { version: c.version || '?', host: c.host, n: c.models });
  const key = `conn.problem.${c.code}`;
  const p = { host: c.host, value: c.host, detail: '', ...(c.params ?? {}) };
  return isKey(key) ? t(key, p) : c.problem;
}

/** Ollama answered before and does not now: a banner over the conversation, not the setup screen. */
export function isLost(s: SetupState | null): boolean {
  return !!s && (s.connection === 'not_responding' || s.step === 'reconnect');
}

/** The address is not this computer, or Hermes refuses it: the setup asks for another address. */
export function needsAddress(s: SetupState | null): boolean {
  return !!s && (s.step === 'connect' || s.connection === 'remote_unreachable' || s.connection === 'refused');
}
