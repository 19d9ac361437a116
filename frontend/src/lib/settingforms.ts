// Settings as grouped forms: which backend setting (backend/config/settings.go) goes in which
// group, with what kind of field. Each key's label is "settingsForm.label.<key>" and its help the
// setting's description (lib/settingtext.ts); a key in no group shows under Advanced only.
import type { MessageKey } from './i18n.svelte';

export type FieldKind = 'text' | 'bool' | 'manage';

export interface SettingGroup {
  id: 'connection' | 'model' | 'conversations' | 'memory' | 'files' | 'privacy';
  title: MessageKey;
  keys: readonly string[];
}

/** The groups in the order Settings shows them (Connection's address has its own form). */
export const SETTING_GROUPS: readonly SettingGroup[] = [
  {
    id: 'connection',
    title: 'settingsForm.group.connection',
    keys: ['manage_ollama', 'ollama_path', 'connect_timeout', 'ollama_allow_internet'],
  },
  {
    id: 'model',
    title: 'settingsForm.group.model',
    keys: ['chat_model', 'fallback_models', 'embed_model', 'context_window', 'reply_reserve', 'keep_alive', 'first_token_timeout', 'token_gap_timeout'],
  },
  { id: 'conversations', title: 'settingsForm.group.conversations', keys: ['recent_turns', 'idle_timeout', 'archive_after'] },
  { id: 'memory', title: 'settingsForm.group.memory', keys: ['memory_half_lives', 'memory_verifiers'] },
  { id: 'files', title: 'settingsForm.group.files', keys: ['cage_memory', 'cage_time'] },
  { id: 'privacy', title: 'settingsForm.group.privacy', keys: ['offline_only'] },
];

/** The keys with a field of their own in a group (ollama_host: the Connection form). */
export const GROUPED_KEYS: ReadonlySet<string> = new Set(['ollama_host', ...SETTING_GROUPS.flatMap((g) => g.keys)]);

/** The field a setting takes. */
export function fieldKind(key: string): FieldKind {
  if (key === 'offline_only' || key === 'ollama_allow_internet') return 'bool';
  if (key === 'manage_ollama') return 'manage';
  return 'text';
}

/** The label of a setting. */
export function labelKey(key: string): MessageKey {
  return `settingsForm.label.${key}` as MessageKey;
}

/** Settings a browser may change only with the code `hermes serve` prints (app/webcode.go). */
export function needsCode(key: string, value: string): boolean {
  return key === 'ollama_path' || (key === 'ollama_allow_internet' && value === 'true');
}
