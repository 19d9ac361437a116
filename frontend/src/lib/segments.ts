// Splits guidance text such as "Run `ollama serve`" into plain and code parts (rendered as text).
export interface Segment {
  code: boolean;
  text: string;
}

export function codeSegments(s: string): Segment[] {
  const out: Segment[] = [];
  const parts = s.split('`');
  // An unmatched backtick leaves the tail as plain text.
  const paired = parts.length % 2 === 1;
  parts.forEach((text, i) => {
    const code = i % 2 === 1 && (paired || i < parts.length - 1);
    if (text === '') return;
    if (!code && i % 2 === 1) out.push({ code: false, text: '`' + text });
    else out.push({ code, text });
  });
  return out;
}
