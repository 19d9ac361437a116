// UI text in English and Chinese. Every key must exist in both dictionaries.

export const en = {
  'app.name': 'Hermes',
  'app.tagline': 'Private, offline assistant',

  'sidebar.title': 'Chats',
  'sidebar.new': 'New chat',
  'sidebar.newHint': 'New chat (Ctrl+N)',
  'sidebar.empty': 'No conversations yet.',
  'sidebar.untitled': 'Untitled chat',
  'sidebar.messages': '{n} messages',
  'sidebar.loadError': 'Could not load conversations: {error}',

  'chat.emptyTitle': 'How can I help?',
  'chat.emptyBody': 'Your conversations stay on this computer.',
  'chat.sendError': 'Message not sent: {error}. Your text is back in the box below.',
  'chat.loadError': 'Could not open this conversation: {error}',
  'chat.cancelError': 'Could not stop the reply: {error}',
  'chat.dismiss': 'Dismiss',

  'composer.placeholder': 'Message Hermes…',
  'composer.label': 'Message',
  'composer.send': 'Send',
  'composer.stop': 'Stop',
  'composer.hint': 'Enter to send · Shift+Enter for a new line · Esc to stop · Ctrl+N for a new chat',

  'msg.user': 'You',
  'msg.assistant': 'Hermes',
  'msg.stopped': 'stopped',
  'msg.failed': 'failed: {error}',
  'msg.thinking': 'Thinking…',
  'msg.copy': 'Copy',
  'msg.copied': 'Copied',

  'status.label': 'Status',
  'status.loading': 'Connecting to Hermes…',
  'status.backendError': 'The Hermes backend is not responding ({error}). Restart Hermes if this persists.',
  'status.unreachable':
    'Ollama is not reachable at {host}. Start it with `ollama serve` (install Ollama first if needed), or change the host in Settings.',
  'status.modelMissing': 'Model {model} is not installed. Run `ollama pull {model}` or pick another model.',
  'status.ok': 'Ready · Ollama {version} at {host} · model {model}',
  'status.warning': 'Warning',

  'header.model': 'Model',
  'header.settings': 'Settings',
  'header.themeToDark': 'Switch to dark theme',
  'header.themeToLight': 'Switch to light theme',
  'header.language': 'Language: 中文',

  'model.notInstalled': '{model} (not installed)',
  'model.none': 'No models installed',
  'model.saveError': 'Could not switch model: {error}',

  'settings.title': 'Settings',
  'settings.close': 'Close',
  'settings.save': 'Save',
  'settings.saving': 'Saving…',
  'settings.saved': 'Saved',
  'settings.loading': 'Loading settings…',
  'settings.loadError': 'Could not load settings: {error}',
  'settings.backend': 'Backend settings',
  'settings.appearance': 'Appearance',
  'settings.theme': 'Theme',
  'settings.themeSystem': 'Follow system',
  'settings.themeLight': 'Light',
  'settings.themeDark': 'Dark',
  'settings.language': 'Language',
  'settings.dataDir': 'Data folder',
  'settings.none': 'No settings available.',
} as const;

export type MessageKey = keyof typeof en;

export const zh: Record<MessageKey, string> = {
  'app.name': 'Hermes',
  'app.tagline': '私密的离线助手',

  'sidebar.title': '对话',
  'sidebar.new': '新对话',
  'sidebar.newHint': '新对话 (Ctrl+N)',
  'sidebar.empty': '还没有对话。',
  'sidebar.untitled': '未命名对话',
  'sidebar.messages': '{n} 条消息',
  'sidebar.loadError': '无法加载对话列表：{error}',

  'chat.emptyTitle': '有什么可以帮您？',
  'chat.emptyBody': '您的对话只保存在这台电脑上。',
  'chat.sendError': '消息未发送：{error}。您输入的文字已放回下方的输入框。',
  'chat.loadError': '无法打开此对话：{error}',
  'chat.cancelError': '无法停止回复：{error}',
  'chat.dismiss': '关闭',

  'composer.placeholder': '给 Hermes 发消息…',
  'composer.label': '消息',
  'composer.send': '发送',
  'composer.stop': '停止',
  'composer.hint': 'Enter 发送 · Shift+Enter 换行 · Esc 停止 · Ctrl+N 新对话',

  'msg.user': '你',
  'msg.assistant': 'Hermes',
  'msg.stopped': '已停止',
  'msg.failed': '失败：{error}',
  'msg.thinking': '思考中…',
  'msg.copy': '复制',
  'msg.copied': '已复制',

  'status.label': '状态',
  'status.loading': '正在连接 Hermes…',
  'status.backendError': 'Hermes 后端没有响应（{error}）。如果持续出现，请重新启动 Hermes。',
  'status.unreachable':
    '无法连接 {host} 上的 Ollama。请运行 `ollama serve` 启动它（如未安装请先安装 Ollama），或在设置中修改地址。',
  'status.modelMissing': '模型 {model} 尚未安装。请运行 `ollama pull {model}`，或选择其他模型。',
  'status.ok': '就绪 · Ollama {version}（{host}）· 模型 {model}',
  'status.warning': '警告',

  'header.model': '模型',
  'header.settings': '设置',
  'header.themeToDark': '切换到深色主题',
  'header.themeToLight': '切换到浅色主题',
  'header.language': 'Language: English',

  'model.notInstalled': '{model}（未安装）',
  'model.none': '没有已安装的模型',
  'model.saveError': '无法切换模型：{error}',

  'settings.title': '设置',
  'settings.close': '关闭',
  'settings.save': '保存',
  'settings.saving': '正在保存…',
  'settings.saved': '已保存',
  'settings.loading': '正在加载设置…',
  'settings.loadError': '无法加载设置：{error}',
  'settings.backend': '后端设置',
  'settings.appearance': '外观',
  'settings.theme': '主题',
  'settings.themeSystem': '跟随系统',
  'settings.themeLight': '浅色',
  'settings.themeDark': '深色',
  'settings.language': '语言',
  'settings.dataDir': '数据文件夹',
  'settings.none': '没有可用的设置。',
};

export type Lang = 'en' | 'zh';
export const dictionaries: Record<Lang, Record<MessageKey, string>> = { en, zh };

const STORAGE_KEY = 'hermes.lang';

/** Picks the initial language: a saved choice, else the browser's language. */
export function initialLang(saved: string | null, navigatorLang: string | undefined): Lang {
  if (saved === 'en' || saved === 'zh') return saved;
  return (navigatorLang ?? '').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

function readSaved(): string | null {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

export const locale = $state<{ lang: Lang }>({
  lang: initialLang(readSaved(), globalThis.navigator?.language),
});

export function setLang(lang: Lang): void {
  locale.lang = lang;
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, lang);
  } catch {
    // storage may be unavailable; the choice then lasts for this run only
  }
  if (typeof document !== 'undefined') document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
}

/** Formats a message; {name} placeholders are replaced from params. */
export function format(template: string, params?: Record<string, string | number>): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

/** Translates a key in the current language. Reactive when called from a component. */
export function t(key: MessageKey, params?: Record<string, string | number>): string {
  const dict = dictionaries[locale.lang] ?? en;
  return format(dict[key] ?? en[key] ?? key, params);
}
