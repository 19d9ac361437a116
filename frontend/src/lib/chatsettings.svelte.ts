// A conversation's own settings (system prompt, model, temperature, context size) and the
// saved system prompts (presets), for the per-chat settings dialog.
import type { Api, ChatSettings, ChatSettingsInput, ModelDetail, SystemPreset, SessionThink } from './backend';
import { errorMessage } from './backend';

export type ChatSettingsApi = Pick<
  Api,
  'SessionSettings' | 'SetSessionSettings' | 'SystemPresets' | 'SaveSystemPreset' | 'DeleteSystemPreset'
> &
  Partial<Pick<Api, 'ListModelDetails' | 'KBList'>>;

/** What the dialog edits: text fields as typed (empty: the global setting). */
export interface ChatSettingsDraft {
  system: string;
  model: string;
  temperature: string;
  numCtx: string;
  think: SessionThink;
  /** The collections the chat may cite: null every one, [] none. */
  knowledge: string[] | null;
}

export const MIN_CTX = 512;
export const MAX_CTX = 1 << 20;

/** The draft a stored setting gives. */
export function toDraft(s: ChatSettings): ChatSettingsDraft {
  return {
    system: s.system,
    model: s.model,
    temperature: s.temperature === null || s.temperature === undefined ? '' : String(s.temperature),
    numCtx: s.numCtx > 0 ? String(s.numCtx) : '',
    think: (s.think ?? '') as SessionThink,
    knowledge: s.knowledge ?? null,
  };
}

/** Why a draft cannot be saved ('' when it can): the field and a message key. */
export function checkDraft(d: ChatSettingsDraft): { field: keyof ChatSettingsDraft; key: 'chatSettings.badTemperature' | 'chatSettings.badContext' } | null {
  const temp = d.temperature.trim();
  if (temp !== '') {
    const n = Number(temp);
    if (!Number.isFinite(n) || n < 0 || n > 2) return { field: 'temperature', key: 'chatSettings.badTemperature' };
  }
  const ctx = d.numCtx.trim();
  if (ctx !== '') {
    const n = Number(ctx);
    if (!Number.isInteger(n) || (n !== 0 && (n < MIN_CTX || n > MAX_CTX))) return { field: 'numCtx', key: 'chatSettings.badContext' };
  }
  return null;
}

/** The request a valid draft makes. */
export function fromDraft(d: ChatSettingsDraft): ChatSettingsInput {
  const temp = d.temperature.trim();
  const ctx = d.numCtx.trim();
  return {
    system: d.system.trim(),
    model: d.model.trim(),
    temperature: temp === '' ? null : Number(temp),
    numCtx: ctx === '' ? 0 : Number(ctx),
    think: d.think,
    knowledge: d.knowledge,
  };
}

/** The installed models that can chat (not embedding-only ones). */
export function chatModels(models: ModelDetail[]): string[] {
  return models
    .filter((m) => {
      const caps = m.capabilities ?? [];
      return caps.length === 0 || caps.some((c) => c !== 'embedding');
    })
    .map((m) => m.name);
}

export class ChatSettingsStore {
  sessionId = $state('');
  settings = $state<ChatSettings | null>(null);
  presets = $state<SystemPreset[]>([]);
  models = $state<string[]>([]);
  /** The knowledge-base collections there are (their names). */
  collections = $state<string[]>([]);
  loading = $state(false);
  saving = $state(false);
  error = $state('');
  #api: ChatSettingsApi;

  constructor(api: ChatSettingsApi) {
    this.#api = api;
  }

  /** Loads a chat's settings, the presets and the installed chat models. */
  async load(sessionId: string): Promise<void> {
    this.sessionId = sessionId;
    this.loading = true;
    this.error = '';
    try {
      const [settings, presets] = await Promise.all([
        this.#api.SessionSettings(sessionId),
        this.#api.SystemPresets(),
      ]);
      if (this.sessionId !== sessionId) return;
      this.settings = settings;
      this.presets = presets;
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.loading = false;
    }
    try {
      this.models = chatModels((await this.#api.ListModelDetails?.()) ?? []);
    } catch {
      this.models = []; // Ollama away: the model field still takes a name
    }
    try {
      this.collections = ((await this.#api.KBList?.()) ?? []).map((c) => c.name);
    } catch {
      this.collections = [];
    }
  }

  /** Saves the draft; true when stored. */
  async save(draft: ChatSettingsDraft): Promise<boolean> {
    if (!this.sessionId) return false;
    this.saving = true;
    this.error = '';
    try {
      this.settings = await this.#api.SetSessionSettings(this.sessionId, fromDraft(draft));
      return true;
    } catch (e) {
      this.error = errorMessage(e);
      return false;
    } finally {
      this.saving = false;
    }
  }

  async savePreset(name: string, text: string): Promise<boolean> {
    this.error = '';
    try {
      this.presets = await this.#api.SaveSystemPreset(name.trim(), text);
      return true;
    } catch (e) {
      this.error = errorMessage(e);
      return false;
    }
  }

  async deletePreset(name: string): Promise<boolean> {
    this.error = '';
    try {
      this.presets = await this.#api.DeleteSystemPreset(name);
      return true;
    } catch (e) {
      this.error = errorMessage(e);
      return false;
    }
  }
}
