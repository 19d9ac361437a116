// Browser end-to-end test of attached documents: a PDF attached with the paperclip
// shows as a chip with its token count, is sent with the message, and its text
// reaches the model (the fake Ollama's --echo-documents answers "what does the
// document say" with the start of the document text the request carried).
//
//   (cd .. && go tool task build) && node --test e2e/documents.e2e.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, closeApp, openApp, sendAndWait, setLanguage, SHOT_SIZES, sleep, tempDir } from './harness.mjs';

const logs = {};
const PREFIX = 'documents-';

/** A valid PDF with one page per entry of pages (Helvetica, ASCII), as documenttest.MinimalPDF. */
function minimalPDF(pages) {
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + 2 * i} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  pages.forEach((lines, i) => {
    let c = 'BT /F1 12 Tf 72 720 Td 14 TL\n';
    for (const l of lines) c += `(${l.replace(/[\\()]/g, (m) => '\\' + m)}) Tj T*\n`;
    c += 'ET';
    objs.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`,
      `<< /Length ${c.length} >>\nstream\n${c}\nendstream`,
    );
  });
  let out = '%PDF-1.4\n';
  const offs = [];
  objs.forEach((o, i) => {
    offs.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const x = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const o of offs) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${x}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

describe('attached documents', { timeout: 240_000 }, () => {
  let app;
  let files;
  const problems = [];

  before(async () => {
    files = tempDir('hermes-e2e-docs-files-');
    writeFileSync(join(files, 'service-log.pdf'), minimalPDF([['Service log: the quartz boiler was serviced on 3 March by Ada.', 'Next visit in September.']]));
    writeFileSync(join(files, 'notes.md'), '# Notes\n\nBring the spare key.\n');
    writeFileSync(join(files, 'data.bin'), Buffer.from([0, 1, 0x62, 0x69, 0x6e, 0, 0xff, 0xfe, 0, 0, 0, 13]));
    mkdirSync(join(artifacts, 'documents'), { recursive: true });
    app = await openApp(logs, problems, { prefix: 'documents', fakeArgs: ['--echo-documents'] });
  });

  after(async () => {
    if (app) await closeApp(logs, app, 'documents-final.png', PREFIX);
  });

  it('refuses a binary file with a message naming the supported kinds', async () => {
    const { page } = app;
    await page.getByTestId('document-input').setInputFiles(join(files, 'data.bin'));
    const err = page.getByTestId('document-error');
    await err.waitFor();
    assert.match(await err.textContent(), /data\.bin.*text, Markdown, code, CSV and PDF files .*and PNG, JPEG, WebP and GIF images/);
    // In Chinese the refusal is in Chinese: it comes with a code, the file's name a part of it.
    await setLanguage(page, 'zh');
    try {
      await page.getByTestId('document-input').setInputFiles([]);
      await page.getByTestId('document-input').setInputFiles(join(files, 'data.bin'));
      await page.waitForFunction(() => /不是 Hermes 能读取的文本文件或图片/.test(document.querySelector('[data-testid="document-error"]')?.textContent ?? ''));
      assert.match(await err.textContent(), /^“data\.bin”不是 Hermes 能读取的文本文件或图片；/);
    } finally {
      await setLanguage(page, 'en');
    }
  });

  it('shows a PDF as a chip with its token count, removable before sending', async () => {
    const { page } = app;
    await page.getByTestId('document-input').setInputFiles([join(files, 'service-log.pdf'), join(files, 'notes.md')]);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="document-chip"]').length === 2);
    const pdfChip = page.locator('[data-testid="document-chip"][data-kind="pdf"]');
    assert.match(await pdfChip.textContent(), /service-log\.pdf/);
    assert.match(await pdfChip.getByTestId('document-tokens').textContent(), /PDF · \d+ tokens/);
    await page.locator('[data-testid="document-chip"][data-kind="markdown"]').getByTestId('document-remove').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="document-chip"]').length === 1);
  });

  it('sends the PDF and its text reaches the model', async () => {
    const { page } = app;
    const reply = await sendAndWait(page, 'what does the document say?');
    assert.equal(reply.status, 'ok');
    assert.match(reply.text, /Document: Service log: the quartz boiler was serviced on 3 March by Ada/);
    // The user message shows its document chip, and the composer is empty again.
    const sent = page.locator('[data-testid="message"][data-role="user"]').last();
    assert.match(await sent.getByTestId('message-document').textContent(), /service-log\.pdf/);
    assert.doesNotMatch(await sent.textContent(), /<document/);
    assert.equal(await page.getByTestId('document-chip').count(), 0);
    // A follow-up still sees the document (stored with the message).
    const again = await sendAndWait(page, 'and again: what does the document say?');
    assert.match(again.text, /quartz boiler/);
  });

  it('shows the document in the context inspector with the reason "document"', async () => {
    const { page } = app;
    const toggle = page.getByTestId('context-toggle');
    if (!(await toggle.isVisible())) await page.getByTestId('header-menu').click();
    await toggle.click();
    await page.getByTestId('context-inspector').waitFor();
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="context-item"][data-reason="document"]')].some((el) =>
          (el.querySelector('[data-testid="context-preview"]')?.textContent ?? '').includes('quartz boiler'),
        ),
      null,
      { timeout: 10_000 },
    );
    await page.screenshot({ path: join(artifacts, 'documents', 'context-document-en-light.png') });
    if (await toggle.isVisible()) await toggle.click();
    else {
      await page.getByTestId('header-menu').click();
      await toggle.click();
    }
  });

  it('takes screenshots of the composer with chips in both languages and themes at three sizes', async () => {
    const { page } = app;
    const dir = join(artifacts, 'documents');
    await page.getByTestId('document-input').setInputFiles([join(files, 'service-log.pdf'), join(files, 'notes.md')]);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="document-chip"]').length === 2);
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const l of ['en', 'zh']) {
        const is = (await page.evaluate(() => document.documentElement.lang)).startsWith('zh') ? 'zh' : 'en';
        if (is !== l) {
          const toggle = page.getByTestId('language-toggle');
          if (!(await toggle.isVisible())) await page.getByTestId('header-menu').click();
          await toggle.click();
          await page.waitForFunction((w) => document.documentElement.lang.startsWith(w), l);
        }
        for (const [w, h] of SHOT_SIZES) {
          await page.setViewportSize({ width: w, height: h });
          await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
          await sleep(200);
          await page.screenshot({ path: join(dir, `composer-${l}-${scheme}-${w}x${h}.png`) });
        }
      }
    }
    assert.deepEqual(problems, []);
  });
});
