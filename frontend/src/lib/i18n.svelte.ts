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

  'sidebar.itemHint': 'Open · F2 to rename · Delete to delete',
  'sidebar.actions': 'Actions for “{title}”',
  'sidebar.rename': 'Rename',
  'sidebar.renameLabel': 'Conversation title',
  'sidebar.renameHint': 'Enter to save · Esc to cancel',
  'sidebar.pin': 'Pin to top',
  'sidebar.unpin': 'Unpin',
  'sidebar.pinned': 'Pinned',
  'sidebar.archive': 'Archive',
  'sidebar.archived': 'Archived ({n})',
  'sidebar.archivedTag': 'archived',
  'sidebar.exportMd': 'Export as Markdown',
  'sidebar.exportJson': 'Export as JSON',
  'sidebar.delete': 'Delete…',
  'sidebar.actionError': 'That did not work: {error}',

  'search.placeholder': 'Search all chats…',
  'search.label': 'Search all conversations',
  'search.hint': 'Search all conversations, archived ones too (Ctrl+K) · Esc to clear',
  'search.clear': 'Clear search',
  'search.searching': 'Searching…',
  'search.none': 'No messages match “{query}”.',
  'search.count': '{n} results',
  'search.error': 'Search failed: {error}',

  'confirm.deleteTitle': 'Delete this conversation?',
  'confirm.deleteBody':
    '“{title}” and all its messages will be deleted from this computer for good. This cannot be undone.',
  'confirm.cancel': 'Cancel',
  'confirm.delete': 'Delete',

  'export.title': 'Export: {file}',
  'export.hint': 'Copy the text and save it wherever you like.',
  'export.copy': 'Copy',
  'export.copied': 'Copied',
  'export.close': 'Close',

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

  'msg.pin': 'Pin this message: it is always offered to the model',
  'msg.unpin': 'Unpin this message',
  'msg.pinned': 'pinned',
  'msg.pinnedHint': 'Pinned: always offered to the model',
  'msg.pinError': 'Could not change the pin: {error}',
  'msg.intentTitle': 'Intent: {label} ({confidence} confident)',
  'msg.intentTitleNoConfidence': 'Intent: {label}',

  'intent.chitchat': 'chitchat',
  'intent.question': 'question',
  'intent.task': 'task',
  'intent.remember': 'remember',
  'intent.recall': 'recall',
  'intent.forget': 'forget',
  'intent.hypothetical': 'hypothetical',
  'intent.unknown': 'unknown',

  'tools.none': 'none',
  'tools.read-only': 'read-only tools',
  'tools.task': 'task tools',
  'tools.memory': 'memory tools',

  'intentBanner.label': 'Intent classifier',
  'intentBanner.stillWorks': 'Chat still works; messages are marked “unknown”.',
  'intentBanner.dismiss': 'Hide until Hermes restarts',

  'context.title': 'Context of the last turn',
  'context.refresh': 'Refresh',
  'context.close': 'Close the context panel',
  'context.loading': 'Loading…',
  'context.error': 'Could not load the context: {error}',
  'context.noSession': 'Open or start a conversation to see what the model sees.',
  'context.noTurn': 'No turn in this conversation since Hermes started. Send a message to see what the model sees.',
  'context.budget': '{used} of {budget} tokens ({percent}%)',
  'context.budgetLabel': 'Context budget used',
  'context.left': '{n} left',
  'context.dropped': '{n} older messages left out',
  'context.droppedNone': 'No older messages left out',
  'context.tokens': '{n} tokens',
  'context.shortened': 'shortened',
  'context.items': '{n} items',
  'context.jump': 'Show this message in the conversation',
  'context.plan': 'Intent {intent} ({confidence}) · {tools}',

  'reason.system': 'system',
  'reason.query': 'your message',
  'reason.summary': 'summary',
  'reason.memory': 'memory',
  'reason.tool_schema': 'tool schema',
  'reason.pinned': 'pinned',
  'reason.recent': 'recent',
  'reason.relevant': 'relevant',
  'reason.anchor': 'anchor',
  'reason.newest': 'newest',
  'reasonHint.system': 'The system prompt',
  'reasonHint.query': 'The message being answered',
  'reasonHint.summary': 'A summary of older turns that no longer fit',
  'reasonHint.memory': 'Something Hermes remembers about you',
  'reasonHint.tool_schema': 'A description of a tool the model may call',
  'reasonHint.pinned': 'A pinned message: always offered',
  'reasonHint.recent': 'One of the newest turns',
  'reasonHint.relevant': 'An older turn related to the current message',
  'reasonHint.anchor': 'An older turn with a time, a number, “that one” or a negation, kept with its neighbours',
  'reasonHint.newest': 'A newer turn that still fitted the budget',

  'role.user': 'user',
  'role.assistant': 'assistant',
  'role.system': 'system',
  'role.tool': 'tool',

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
  'header.context': 'Context',
  'header.contextHint': 'Show what the model saw on the last turn',

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
  'settings.routing': 'Routing of the last turn',
  'settings.routingNone': 'No turn in the open conversation since Hermes started.',
  'settings.routingIntent': 'Intent',
  'settings.routingConfidence': 'Confidence',
  'settings.routingRecall': 'Recall memories',
  'settings.routingRecallOn': 'on, up to {k}',
  'settings.routingOff': 'off',
  'settings.routingMayWrite': 'May write memory',
  'settings.routingTools': 'Tools offered',
  'settings.yes': 'yes',
  'settings.no': 'no',
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

  'sidebar.itemHint': '打开 · F2 重命名 · Delete 删除',
  'sidebar.actions': '“{title}”的操作',
  'sidebar.rename': '重命名',
  'sidebar.renameLabel': '对话标题',
  'sidebar.renameHint': 'Enter 保存 · Esc 取消',
  'sidebar.pin': '置顶',
  'sidebar.unpin': '取消置顶',
  'sidebar.pinned': '已置顶',
  'sidebar.archive': '归档',
  'sidebar.archived': '已归档（{n}）',
  'sidebar.archivedTag': '已归档',
  'sidebar.exportMd': '导出为 Markdown',
  'sidebar.exportJson': '导出为 JSON',
  'sidebar.delete': '删除…',
  'sidebar.actionError': '操作失败：{error}',

  'search.placeholder': '搜索所有对话…',
  'search.label': '搜索所有对话',
  'search.hint': '搜索所有对话，包括已归档的 (Ctrl+K) · Esc 清除',
  'search.clear': '清除搜索',
  'search.searching': '正在搜索…',
  'search.none': '没有与“{query}”匹配的消息。',
  'search.count': '{n} 条结果',
  'search.error': '搜索失败：{error}',

  'confirm.deleteTitle': '删除这个对话？',
  'confirm.deleteBody': '“{title}”及其所有消息将从这台电脑上永久删除，且无法恢复。',
  'confirm.cancel': '取消',
  'confirm.delete': '删除',

  'export.title': '导出：{file}',
  'export.hint': '复制这段文字，然后保存到您想要的位置。',
  'export.copy': '复制',
  'export.copied': '已复制',
  'export.close': '关闭',

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

  'msg.pin': '固定这条消息：它总会提供给模型',
  'msg.unpin': '取消固定这条消息',
  'msg.pinned': '已固定',
  'msg.pinnedHint': '已固定：总会提供给模型',
  'msg.pinError': '无法更改固定状态：{error}',
  'msg.intentTitle': '意图：{label}（置信度 {confidence}）',
  'msg.intentTitleNoConfidence': '意图：{label}',

  'intent.chitchat': '闲聊',
  'intent.question': '提问',
  'intent.task': '任务',
  'intent.remember': '记住',
  'intent.recall': '回忆',
  'intent.forget': '遗忘',
  'intent.hypothetical': '假设',
  'intent.unknown': '未知',

  'tools.none': '无',
  'tools.read-only': '只读工具',
  'tools.task': '任务工具',
  'tools.memory': '记忆工具',

  'intentBanner.label': '意图分类器',
  'intentBanner.stillWorks': '聊天仍然可用；消息会标记为“未知”。',
  'intentBanner.dismiss': '在 Hermes 重启前不再显示',

  'context.title': '上一轮的上下文',
  'context.refresh': '刷新',
  'context.close': '关闭上下文面板',
  'context.loading': '正在加载…',
  'context.error': '无法加载上下文：{error}',
  'context.noSession': '打开或开始一个对话，即可查看模型看到的内容。',
  'context.noTurn': '自 Hermes 启动以来，这个对话还没有新的一轮。发送一条消息即可查看模型看到的内容。',
  'context.budget': '已用 {used} / {budget} 个 token（{percent}%）',
  'context.budgetLabel': '已用的上下文预算',
  'context.left': '剩余 {n}',
  'context.dropped': '省略了 {n} 条较早的消息',
  'context.droppedNone': '没有省略较早的消息',
  'context.tokens': '{n} 个 token',
  'context.shortened': '已缩短',
  'context.items': '{n} 项',
  'context.jump': '在对话中显示这条消息',
  'context.plan': '意图 {intent}（{confidence}）· {tools}',

  'reason.system': '系统',
  'reason.query': '您的消息',
  'reason.summary': '摘要',
  'reason.memory': '记忆',
  'reason.tool_schema': '工具说明',
  'reason.pinned': '已固定',
  'reason.recent': '最近',
  'reason.relevant': '相关',
  'reason.anchor': '锚点',
  'reason.newest': '较新',
  'reasonHint.system': '系统提示词',
  'reasonHint.query': '正在回答的消息',
  'reasonHint.summary': '放不下的较早对话的摘要',
  'reasonHint.memory': 'Hermes 记得的关于您的信息',
  'reasonHint.tool_schema': '模型可以调用的工具的说明',
  'reasonHint.pinned': '已固定的消息：总会提供',
  'reasonHint.recent': '最新的几轮之一',
  'reasonHint.relevant': '与当前消息相关的较早一轮',
  'reasonHint.anchor': '含有时间、数字、“这个”或否定词的较早一轮，连同前后相邻的消息',
  'reasonHint.newest': '预算内还放得下的较新一轮',

  'role.user': '用户',
  'role.assistant': '助手',
  'role.system': '系统',
  'role.tool': '工具',

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
  'header.context': '上下文',
  'header.contextHint': '查看模型在上一轮看到的内容',

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
  'settings.routing': '上一轮的路由',
  'settings.routingNone': '自 Hermes 启动以来，当前对话还没有新的一轮。',
  'settings.routingIntent': '意图',
  'settings.routingConfidence': '置信度',
  'settings.routingRecall': '检索记忆',
  'settings.routingRecallOn': '开启，最多 {k} 条',
  'settings.routingOff': '关闭',
  'settings.routingMayWrite': '可以写入记忆',
  'settings.routingTools': '提供的工具',
  'settings.yes': '是',
  'settings.no': '否',
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
