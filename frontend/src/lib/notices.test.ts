import { describe, expect, it } from 'vitest';
import { dictionaries, format, type MessageKey } from './i18n.svelte';
import { NOTICE_CODES, installNote, noticeLine, noticeWords } from './notices';

const PARAMS = { host: 'http://h:1', command: 'cmd', path: '/p', binary: '/b', model: 'm', installed: 'a, b', detail: 'd', dir: '/d', version: '0.1', min: '0.2' };
const translator = (lang: 'en' | 'zh') => (key: MessageKey, p?: Record<string, string | number>) => format(dictionaries[lang][key] ?? key, p);

describe('notices', () => {
  it('has words in both languages for every code, with no placeholder or key left', () => {
    for (const code of NOTICE_CODES) {
      for (const lang of ['en', 'zh'] as const) {
        const w = noticeWords({ code, params: PARAMS, problem: 'english' }, translator(lang));
        const line = [w.problem, w.fix].join(' ');
        expect(line, `${lang} ${code}`).not.toMatch(/\{\w+\}|notice\./);
        expect(w.problem.length, `${lang} ${code}`).toBeGreaterThan(0);
        if (lang === 'zh') expect(line, code).toMatch(/[\u4e00-\u9fff]/);
      }
    }
  });

  it('falls back to the English for a code it does not know, or none', () => {
    const en = translator('zh');
    expect(noticeWords({ code: 'flux', problem: ' It broke. ', fix: 'Fix it.' }, en)).toEqual({ problem: 'It broke.', fix: 'Fix it.' });
    expect(noticeLine({ problem: 'It broke.', fix: '' }, en)).toBe('It broke.');
  });

  it('words the install note for the OS the backend runs on', () => {
    expect(installNote('linux', translator('zh'))).toContain('/usr/local/bin');
    expect(installNote('linux', translator('zh'))).toMatch(/[\u4e00-\u9fff]/);
    expect(installNote('freebsd', translator('zh'))).toBe(installNote('linux', translator('zh')));
    expect(installNote('darwin', translator('en'))).toContain('the app');
    expect(installNote(undefined, translator('zh'))).toBe('');
  });
});
