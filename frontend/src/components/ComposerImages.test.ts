import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import Composer from './Composer.svelte';
import MessageImage from './MessageImage.svelte';
import { locale } from '../lib/i18n.svelte';
import { visionBlock } from '../lib/vision';
import type { DocumentInfo } from '../lib/attachment';
import type { ModelDetail } from '../lib/backend';

const THUMB = 'data:image/jpeg;base64,/9j/AAAA';
const photo: DocumentInfo = { id: 'i1', name: 'pump.jpg', kind: 'image', tokens: 1026, chars: 0, mime: 'image/jpeg', width: 1024, height: 768, thumb: THUMB };
const notes: DocumentInfo = { id: 'd1', name: 'notes.md', kind: 'markdown', tokens: 30, chars: 120 };

function model(name: string, capabilities: string[]): ModelDetail {
  return { name, capabilities } as ModelDetail;
}

describe('Composer images', () => {
  it('shows an attached image as a thumbnail with its size and tokens', () => {
    locale.lang = 'en';
    const { getAllByTestId, getByTestId } = render(Composer, {
      value: '',
      streaming: false,
      onsend: vi.fn(),
      onstop: vi.fn(),
      documents: [photo, notes],
      onattachfiles: vi.fn(),
    });
    const chips = getAllByTestId('document-chip');
    expect(chips.map((c) => c.dataset.kind)).toEqual(['image', 'markdown']);
    expect((getByTestId('document-thumb') as HTMLImageElement).src).toBe(THUMB);
    expect(chips[0].textContent).toContain('1024×768');
    expect(chips[0].textContent).toContain('1026');
  });

  it('attaches an image pasted from the clipboard, named by the time', async () => {
    const onattachfiles = vi.fn();
    const { getByTestId } = render(Composer, { value: '', streaming: false, onsend: vi.fn(), onstop: vi.fn(), onattachfiles });
    const img = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'image.png', { type: 'image/png' });
    const text = new File(['x'], 'a.txt', { type: 'text/plain' });
    await fireEvent.paste(getByTestId('composer'), { clipboardData: { files: [img, text] } });
    expect(onattachfiles).toHaveBeenCalledTimes(1);
    const files = onattachfiles.mock.calls[0][0] as File[];
    expect(files).toHaveLength(1);
    expect(files[0].name).toMatch(/^pasted-\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\.png$/);
    expect(files[0].type).toBe('image/png');
  });

  it('a paste of plain text is left to the text box', async () => {
    const onattachfiles = vi.fn();
    const { getByTestId } = render(Composer, { value: '', streaming: false, onsend: vi.fn(), onstop: vi.fn(), onattachfiles });
    await fireEvent.paste(getByTestId('composer'), { clipboardData: { files: [] } });
    expect(onattachfiles).not.toHaveBeenCalled();
  });
});

describe('visionBlock', () => {
  const models = [model('llama3.2:latest', ['completion', 'tools']), model('gemma3:latest', ['completion', 'vision']), model('llava', ['completion', 'vision'])];

  it('names the installed models that can see, in English and Chinese', () => {
    expect(visionBlock([photo], 'llama3.2', models, 'en')).toBe(
      'llama3.2 cannot see images. Models here that can: gemma3, llava. Choose one in this chat’s settings, or send the message without the image.',
    );
    expect(visionBlock([photo], 'llama3.2', models, 'zh')).toContain('本机能看图片的模型：gemma3, llava');
  });

  it('says to pull one when none can see', () => {
    expect(visionBlock([photo], 'llama3.2', [models[0]], 'en')).toContain('no installed model can');
  });

  it('lets images go to a model that can see, and text documents to any model', () => {
    expect(visionBlock([photo], 'gemma3', models, 'en')).toBe('');
    expect(visionBlock([notes], 'llama3.2', models, 'en')).toBe('');
    // A model it does not know: the backend decides.
    expect(visionBlock([photo], 'mystery', models, 'en')).toBe('');
  });
});

describe('MessageImage', () => {
  it('loads the stored image and opens it larger on a click', async () => {
    const load = vi.fn(async () => 'data:image/jpeg;base64,AAAA');
    const { getByTestId } = render(MessageImage, { doc: photo, load });
    await waitFor(() => expect(getByTestId('message-image').querySelector('img')?.getAttribute('src')).toBe('data:image/jpeg;base64,AAAA'));
    expect(load).toHaveBeenCalledWith('i1');
    const btn = getByTestId('message-image');
    expect(btn.getAttribute('aria-expanded')).toBe('false');
    await fireEvent.click(btn);
    expect(btn.getAttribute('aria-expanded')).toBe('true');
  });

  it('says so when the image is gone', async () => {
    locale.lang = 'en';
    const { findByTestId } = render(MessageImage, { doc: photo, load: async () => Promise.reject(new Error('not found')) });
    expect((await findByTestId('message-image-missing')).textContent).toBe('The image pump.jpg is no longer stored.');
  });
});
