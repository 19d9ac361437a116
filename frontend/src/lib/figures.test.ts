import { describe, expect, it } from 'vitest';
import { figuresText, seconds, speed } from './figures';
import type { AgentFigures } from './backend';

const full: AgentFigures = {
  model: 'llama3.2',
  promptTokens: 1204,
  completionTokens: 312,
  tokensPerSecond: 41.27,
  firstTokenMs: 350,
  totalMs: 7600,
};

describe('reply figures', () => {
  it('makes the short line in English', () => {
    expect(figuresText(full, 'en').parts.join(' · ')).toBe('llama3.2 · 1,204 → 312 tokens · 41 tok/s · first token 0.35 s');
  });

  it('says in the tooltip when Ollama counted the whole context', () => {
    const cut = figuresText({ ...full, promptTokens: 4096, contextSize: 4096, contextFull: true }, 'en');
    expect(cut.title).toContain('Ollama’s context (4,096 tokens) was full: it cut the start of the prompt.');
    expect(figuresText(full, 'en').title).not.toContain('was full');
  });

  it('makes the short line in Chinese', () => {
    expect(figuresText(full, 'zh').parts.join(' · ')).toBe('llama3.2 · 1,204 → 312 个词元 · 41 词元/秒 · 首个词元 0.35 秒');
  });

  it('puts every known figure, with the total time, in the tooltip', () => {
    expect(figuresText(full, 'en').title.split('\n')).toEqual([
      'Model: llama3.2',
      'Prompt: 1,204 tokens',
      'Reply: 312 tokens',
      'Speed: 41 tokens per second',
      'First token after 0.35 s',
      'Total time: 7.6 s',
    ]);
  });

  it('leaves unknown parts out and falls back to the reply’s model', () => {
    const f = { ...full, model: '', promptTokens: 0, tokensPerSecond: 0, firstTokenMs: 0 };
    expect(figuresText(f, 'en', 'qwen2.5').parts).toEqual(['qwen2.5', '312 tokens']);
    expect(figuresText({ ...f, completionTokens: 0, promptTokens: 9 }, 'en').parts).toEqual(['9 tokens in']);
    expect(figuresText(undefined, 'en')).toEqual({ parts: [], title: '' });
  });

  it('rounds speed and seconds to what is worth reading', () => {
    expect(speed(8.46, 'en')).toBe('8.5');
    expect(speed(123.6, 'en')).toBe('124');
    expect(seconds(2430, 'en')).toBe('2.4');
    expect(seconds(12_400, 'en')).toBe('12');
    expect(seconds(1000, 'en')).toBe('1');
    expect(seconds(12_345_600, 'en')).toBe('12,346');
  });
});
