// Resources attached to a message: how their text goes into the message the model reads (and
// the conversation stores), and how a stored message is split again for display.
//
// The typed text comes first (so the conversation's first-words title, search snippets and the
// intent read what the user wrote), then each resource as one block:
//
//   What are the main parts?
//
//   <resource server="everything" uri="demo://resource/static/document/a.md" name="a.md" mime_type="text/markdown">
//   …the resource's text…
//   </resource>
//
// Attribute values escape & " < >; a "</resource" inside the text is written "<\/resource" so
// that the block cannot be closed early.
import type { DocumentInfo } from './backend';

export interface Attachment {
  server: string;
  uri: string;
  name: string;
  mimeType?: string;
  text: string;
}

/** Identifies an attachment: one per server and URI. */
export function attachmentKey(a: Pick<Attachment, 'server' | 'uri'>): string {
  return `${a.server}\u0000${a.uri}`;
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function unescapeAttr(s: string): string {
  return s.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** One resource as a delimited block. */
export function resourceBlock(a: Attachment): string {
  const attrs = [`server="${escapeAttr(a.server)}"`, `uri="${escapeAttr(a.uri)}"`];
  if (a.name) attrs.push(`name="${escapeAttr(a.name)}"`);
  if (a.mimeType) attrs.push(`mime_type="${escapeAttr(a.mimeType)}"`);
  const body = a.text
    .replace(/\r\n?/g, '\n')
    .replace(/^\n+|\s+$/g, '')
    .replace(/<\/(resource)/gi, '<\\/$1');
  return `<resource ${attrs.join(' ')}>\n${body}\n</resource>`;
}

/** The message sent: what the user typed, then the resource blocks. */
export function composeMessage(text: string, attachments: readonly Attachment[]): string {
  const parts = text.trim() !== '' ? [text.replace(/\s+$/, '')] : [];
  parts.push(...attachments.map(resourceBlock));
  return parts.join('\n\n');
}

/** A part of a stored message: typed text, an attached resource, or an attached document. */
export type MessagePart =
  | { kind: 'text'; text: string }
  | { kind: 'resource'; server: string; uri: string; name: string; mimeType: string; text: string }
  | { kind: 'document'; doc: DocumentInfo };

/**
 * A file attached to a message (AttachDocument; the type is Go's): its text stays in the
 * backend, which fits it into the prompt; the message names it with one line after the rest,
 *
 *   <document id="…" name="report.pdf" kind="pdf" tokens="812" chars="3120"/>
 */
export type { DocumentInfo };

/** Whether an attached document is an image (it goes to a model that can see). */
export function isImage(d: Pick<DocumentInfo, 'kind'>): boolean {
  return d.kind === 'image';
}

/** The line a message names a document with (as the backend's session.DocumentRef.Tag). */
export function documentTag(d: DocumentInfo): string {
  return `<document id="${escapeAttr(d.id)}" name="${escapeAttr(d.name)}" kind="${escapeAttr(d.kind)}" tokens="${d.tokens | 0}" chars="${d.chars | 0}"/>`;
}

/** A message with the documents' lines after it. */
export function withDocuments(body: string, docs: readonly DocumentInfo[]): string {
  if (docs.length === 0) return body;
  const tags = docs.map(documentTag).join('\n');
  return body.trim() === '' ? tags : `${body}\n\n${tags}`;
}

const DOC = /<document((?:\s+[a-z_]+="[^"]*")*)\s*\/>/g;

/** The documents a message names, and the message without their lines. */
export function splitDocuments(content: string): { rest: string; docs: DocumentInfo[] } {
  if (!content.includes('<document')) return { rest: content, docs: [] };
  const docs: DocumentInfo[] = [];
  const rest = content.replace(DOC, (_all, attrText: string) => {
    const attrs: Record<string, string> = {};
    for (const a of attrText.matchAll(ATTR)) attrs[a[1]] = unescapeAttr(a[2]);
    if (!attrs.id) return _all;
    docs.push({ id: attrs.id, name: attrs.name ?? '', kind: attrs.kind ?? '', tokens: Number(attrs.tokens) || 0, chars: Number(attrs.chars) || 0 });
    return '';
  });
  return { rest: docs.length ? rest.replace(/\s+$/, '') : content, docs };
}

const BLOCK = /<resource((?:\s+[a-z_]+="[^"]*")*)>\n([\s\S]*?)\n<\/resource>/g;
const ATTR = /([a-z_]+)="([^"]*)"/g;

/** Splits a message into its typed text and its resource blocks, in order. */
export function splitMessage(message: string): MessagePart[] {
  const { rest: content, docs } = splitDocuments(message);
  const out: MessagePart[] = [];
  const pushText = (s: string) => {
    const text = s.replace(/^\n+|\n+$/g, '');
    if (text.trim() !== '') out.push({ kind: 'text', text });
  };
  let last = 0;
  for (const m of content.matchAll(BLOCK)) {
    const attrs: Record<string, string> = {};
    for (const a of m[1].matchAll(ATTR)) attrs[a[1]] = unescapeAttr(a[2]);
    if (!attrs.uri) continue;
    pushText(content.slice(last, m.index));
    out.push({
      kind: 'resource',
      server: attrs.server ?? '',
      uri: attrs.uri,
      name: attrs.name ?? '',
      mimeType: attrs.mime_type ?? '',
      text: m[2].replace(/<\\\/(resource)/gi, '</$1'),
    });
    last = (m.index ?? 0) + m[0].length;
  }
  pushText(content.slice(last));
  for (const doc of docs) out.push({ kind: 'document', doc });
  return out;
}

/** Where the MCP panel attaches resources: the chat's next message (ChatStore has these). */
export interface AttachTarget {
  attach(a: Attachment): void;
  detach(a: Pick<Attachment, 'server' | 'uri'>): void;
  isAttached(server: string, uri: string): boolean;
}
