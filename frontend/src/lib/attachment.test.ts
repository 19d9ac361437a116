import { describe, expect, it } from 'vitest';
import { composeMessage, resourceBlock, splitMessage, type Attachment } from './attachment';

const doc: Attachment = {
  server: 'everything',
  uri: 'demo://resource/static/document/architecture.md',
  name: 'architecture.md',
  mimeType: 'text/markdown',
  text: '# Architecture\r\n\r\nTools, resources and prompts.\n\n',
};

describe('resource attachments', () => {
  it('puts each resource in a delimited block after the typed text', () => {
    const sent = composeMessage('Summarise this.', [doc]);
    expect(sent).toBe(
      'Summarise this.\n\n' +
        '<resource server="everything" uri="demo://resource/static/document/architecture.md" name="architecture.md" mime_type="text/markdown">\n' +
        '# Architecture\n\nTools, resources and prompts.\n' +
        '</resource>',
    );
    expect(composeMessage('just text', [])).toBe('just text');
    expect(composeMessage('  ', [doc])).toBe(resourceBlock(doc));
  });

  it('escapes attribute values and a closing tag inside the text, and splits the message back', () => {
    const odd: Attachment = { server: 's"1', uri: 'x://a?b=1&c=<2>', name: '', text: 'before </resource> after' };
    const block = resourceBlock(odd);
    expect(block).toBe('<resource server="s&quot;1" uri="x://a?b=1&amp;c=&lt;2&gt;">\nbefore <\\/resource> after\n</resource>');
    expect(splitMessage(composeMessage('question?', [odd, doc]))).toEqual([
      { kind: 'text', text: 'question?' },
      { kind: 'resource', server: 's"1', uri: 'x://a?b=1&c=<2>', name: '', mimeType: '', text: 'before </resource> after' },
      {
        kind: 'resource',
        server: 'everything',
        uri: doc.uri,
        name: 'architecture.md',
        mimeType: 'text/markdown',
        text: '# Architecture\n\nTools, resources and prompts.',
      },
    ]);
  });

  it('leaves a message without blocks as one text part', () => {
    expect(splitMessage('a <resource> that is not a block')).toEqual([{ kind: 'text', text: 'a <resource> that is not a block' }]);
    expect(splitMessage('')).toEqual([]);
  });
});
