// What each backend setting means, in the UI's language. The backend's own description (English,
// also shown by `hermes config list`) is the one English text; the Chinese one is kept here, by
// setting key. A setting without a Chinese text here shows the backend's.
import type { Lang } from './i18n.svelte';

export const settingDescriptionsZh: Record<string, string> = {
  ollama_host: 'Ollama 服务器的地址（默认：$OLLAMA_HOST 或 http://127.0.0.1:11434）',
  chat_model: '聊天用的 Ollama 模型，例如 llama3.2 或 qwen2.5:7b',
  fallback_models: '聊天模型缺失或出错时依次尝试的模型，用英文逗号分隔',
  embed_model: '生成向量用的 Ollama 模型，例如 nomic-embed-text',
  connect_timeout: '连接 Ollama 最多等多久（例如 30s、2m）',
  first_token_timeout: '等第一个词最多等多久，包括加载模型的时间（例如 30s、2m）',
  token_gap_timeout: '两个词之间最长可以停顿多久（例如 30s、2m）',
  keep_alive: 'Ollama 在一次回复后把模型留在内存里多久，每次请求都会带上（例如 5m、1h；0 立即卸载，-1 一直保留）',
  context_window: 'Hermes 向 Ollama 请求的最大上下文（词元数）；模型自身的上限更小时以模型为准',
  reply_reserve: '上下文中为回复留出的词元数',
  cage_memory: '读取一个附加文件时读取程序最多可用的内存（MB），超出则拒收该文件',
  cage_time: '读取一个附加文件最多可用的时间，超出则拒收该文件（例如 30s、2m）',
  recent_turns: '总是提供给模型的最近轮数（放得下时）',
  idle_timeout: '对话多久没有新消息就结束：生成摘要和标题，标为空闲（例如 15m）',
  archive_after: '空闲的对话再过多久归档（仍可搜索，工作记忆会被清除；例如 168h）',
  manage_ollama: 'auto：ollama_host 是本机地址且没有服务应答、又装了 ollama 时，由 Hermes 启动它（退出时停止）；never：不启动',
  memory_half_lives:
    '记住的事实淡忘得多快：按类别设半衰期，例如 health=90d,preference=30d（未写的类别用默认值；已确认的个人资料事实不会淡忘）',
  memory_verifiers:
    '按键名前缀指定核实待定事实的工具，例如 contact.=crm_lookup,work.=hr_check（工具收到 {key, value, text}，回答 {"confirmed": true|false, "reason": "..."}；它必须无需询问即可运行）',
  ollama_path: 'Hermes 可以启动的 ollama 程序（留空：在 PATH 和常见安装位置中查找）',
  offline_only:
    'true：Hermes 只连接本机；其他所有连接（Ollama、MCP 服务器、HTTP 工具，包括局域网）都会被拒绝，并列在“活动 → 网络”中。false：按各部分自己的规则',
  ollama_allow_internet:
    'true：ollama_host 可以是互联网地址（不在本机也不在局域网）；Ollama 的接口没有密码，请通过 https 或隧道访问。false：只允许本机和局域网',
};

/** The description of a setting in lang: the backend's text in English, the Chinese one when there is one. */
export function settingDescription(key: string, backendText: string, lang: Lang): string {
  if (lang === 'zh') return settingDescriptionsZh[key] ?? backendText;
  return backendText;
}
