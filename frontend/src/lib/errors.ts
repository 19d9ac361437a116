// Backend errors in the user's language, by code.
//
// Every failed backend call carries a code from the vocabulary declared once in Go
// (app/errors.go, the Code* constants) and the variable parts of its message as params
// (host, model, setting, limit, wait, detail; a refused document's name, size, chars). The
// UI words the message by code here; a code it does not know (a newer backend) falls back
// to the backend's English text.
// backend_unreachable is the one code the page itself gives: the call never reached Hermes.
import { dictionaries, format, isKey, locale, type Lang, type MessageKey } from './i18n.svelte';

export const ERROR_CODES = [
  'ollama_unreachable',
  'offline_refused',
  'model_missing',
  'pull_offline',
  'pull_unknown',
  'ollama_timeout',
  'ollama_busy',
  'db_busy',
  'db_damaged',
  'db_newer',
  'empty_message',
  'not_found',
  'invalid_input',
  'conflict',
  'unavailable',
  'cancelled',
  'unauthorized',
  'failed',
  'internal',
  'doc_too_big',
  'doc_too_long',
  'doc_not_pdf',
  'doc_not_text',
  'doc_no_text_layer',
  'doc_empty',
  'doc_too_much_memory',
  'doc_too_slow',
  'doc_reader_failed',
  'doc_not_image',
  'doc_too_many_pixels',
  'not_gguf',
  'gguf_version',
  'gguf_damaged',
  'model_too_big',
  'ollama_cut_off',
  'model_cannot_think',
  'model_cannot_see',
  'disk_full',
  'request_too_big',
  'data_disk_full',
  'data_read_only',
  'data_dir_gone',
  'ollama_start_timeout',
  'ollama_exited',
  'ollama_too_old',
  'bad_modelfile',
  'bad_setting',
  'kb_not_found',
  'kb_exists',
  'kb_no_folder',
  'kb_no_passage',
  'needs_desktop',
  'backend_unreachable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && KNOWN.has(code);
}

/**
 * The message for a coded error in lang (the current language by default). message is the
 * backend's English text: the fallback for an unknown code, and {message} in the templates
 * whose English is the backend's own words.
 */
export function errorText(
  code: string | undefined,
  params: Record<string, string> | undefined,
  message: string,
  lang: Lang = locale.lang,
): string {
  if (!isErrorCode(code)) return message;
  let key = `err.${code}` as MessageKey;
  if (code === 'ollama_timeout' && params?.setting === 'token_gap_timeout') key = 'err.ollama_timeout_gap';
  // Ollama does not always say how much memory the model needs and how much is free.
  if (code === 'model_too_big' && !(params?.need && params?.free)) key = 'err.model_too_big_unsized';
  // No installed model can see images: say what to pull instead of an empty list.
  if (code === 'model_cannot_see' && !params?.models) key = 'err.model_cannot_see_none';
  // A name the library does not have: the installed ones close to it, when there are.
  if (code === 'pull_unknown' && params?.models) key = 'err.pull_unknown_near';
  const dict = dictionaries[lang] ?? dictionaries.en;
  // A refused setting, Modelfile or GGUF file is worded by its reason (config.Bad*,
  // llm.Modelfile*, llm.GGUF* in Go) when the page knows it.
  if ((code === 'bad_setting' || code === 'bad_modelfile' || code === 'gguf_damaged') && params?.reason && isKey(`err.${code}.${params.reason}`)) {
    key = `err.${code}.${params.reason}` as MessageKey;
  }
  const template = dict[key];
  if (!template) return message;
  const p: Record<string, string> = { detail: message, ...(params ?? {}), message };
  return format(template, p, lang);
}
