// What the status bar, the setup guide and the banners say about the setup, in the user's language.
//
// The backend sends each such sentence in English (the command line prints it) with a code and
// the variable parts as params (app/notice.go: the Notice* constants; the host, a model, a path,
// a detail). The UI words it by code here, keys "notice.<code>" (the problem) and
// "notice.<code>.fix" (what to do); a code it does not know falls back to the English.
import { isKey, type MessageKey } from './i18n.svelte';

export const NOTICE_CODES = [
  'ollama_missing',
  'ollama_path_bad',
  'ollama_stopped',
  'ollama_stopped_manual',
  'ollama_remote_down',
  'ollama_unreachable',
  'ollama_lost',
  'ollama_refused',
  'ollama_error',
  'offline_refused',
  'models_unlisted',
  'no_models',
  'no_chat_model',
  'model_not_installed',
  'intent_no_library',
  'intent_bad_model',
  'intent_failed',
  'host_not_loopback',
  'ollama_old',
] as const;

export type NoticeCode = (typeof NOTICE_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(NOTICE_CODES);


export function isNoticeCode(code: unknown): code is NoticeCode {
  return typeof code === 'string' && KNOWN.has(code);
}

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

/** A sentence as the backend sends it: the English, and the code and params to word it by. */
export interface NoticeIn {
  code?: string | null;
  params?: Record<string, string> | null;
  problem: string;
  fix?: string;
}

/** The problem and what to do, in the language of t; the English for a code not known here. */
export function noticeWords(n: NoticeIn, t: Translate): { problem: string; fix: string } {
  const english = { problem: (n.problem ?? '').trim(), fix: (n.fix ?? '').trim() };
  if (!isNoticeCode(n.code)) return english;
  const p = n.params ?? {};
  return {
    problem: t(`notice.${n.code}` as MessageKey, p),
    // A warning has no second sentence, what to do: its code has no ".fix" text.
    fix: isKey(`notice.${n.code}.fix`) ? t(`notice.${n.code}.fix` as MessageKey, p) : '',
  };
}

/** The problem and its fix as one line (the status bar). */
export function noticeLine(n: NoticeIn, t: Translate): string {
  const w = noticeWords(n, t);
  if (!w.problem || !w.fix) return w.problem || w.fix;
  // Chinese full-width punctuation carries its own space.
  return /[。！？）]$/.test(w.problem) ? w.problem + w.fix : `${w.problem} ${w.fix}`;
}

/**
 * How else to install Ollama on the OS the backend runs on (the Linux words for the other
 * Unixes, as the backend says), or "" when the backend did not say its OS.
 */
export function installNote(os: string | undefined, t: Translate): string {
  if (!os) return '';
  return t(os === 'darwin' || os === 'windows' ? `notice.installNote.${os}` : 'notice.installNote.linux');
}
