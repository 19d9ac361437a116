import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import Composer from './Composer.svelte';
import { documentTag, splitMessage, withDocuments, type DocumentInfo } from '../lib/attachment';

const pdf: DocumentInfo = { id: 'd1', name: 'report "q1".pdf', kind: 'pdf', tokens: 812, chars: 3120 };

describe('Composer documents', () => {
  it('shows a chip per document with its token count, removable, and sends with only a document', async () => {
    const ondetachdocument = vi.fn();
    const onsend = vi.fn();
    const { getAllByTestId, getByTestId } = render(Composer, {
      value: '',
      streaming: false,
      onsend,
      onstop: vi.fn(),
      documents: [pdf],
      onattachfiles: vi.fn(),
      ondetachdocument,
    });
    const chips = getAllByTestId('document-chip');
    expect(chips).toHaveLength(1);
    expect(chips[0].textContent).toContain('report "q1".pdf');
    expect(getByTestId('document-tokens').textContent).toContain('812');
    expect((getByTestId('send') as HTMLButtonElement).disabled).toBe(false);
    await fireEvent.click(getByTestId('document-remove'));
    expect(ondetachdocument).toHaveBeenCalledWith(pdf);
  });

  it('hands picked and dropped files to onattachfiles', async () => {
    const onattachfiles = vi.fn();
    const { getByTestId } = render(Composer, { value: '', streaming: false, onsend: vi.fn(), onstop: vi.fn(), onattachfiles });
    const file = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    const input = getByTestId('document-input') as HTMLInputElement;
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    await fireEvent.change(input);
    expect(onattachfiles).toHaveBeenCalledWith([file]);
    await fireEvent.drop(getByTestId('composer').closest('.composer')!, { dataTransfer: { files: [file], types: ['Files'] } });
    expect(onattachfiles).toHaveBeenCalledTimes(2);
  });

  it('has no paperclip without onattachfiles', () => {
    const { queryByTestId } = render(Composer, { value: '', streaming: false, onsend: vi.fn(), onstop: vi.fn() });
    expect(queryByTestId('attach-document')).toBeNull();
  });
});

describe('document lines in a message', () => {
  it('round-trips through withDocuments and splitMessage', () => {
    const body = withDocuments('what does it say?', [pdf]);
    expect(body).toBe(`what does it say?\n\n${documentTag(pdf)}`);
    expect(splitMessage(body)).toEqual([
      { kind: 'text', text: 'what does it say?' },
      { kind: 'document', doc: pdf },
    ]);
  });
});
