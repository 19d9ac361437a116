// The composer's context meter: what the next turn will use of what the model reads (the
// conversation before the message as the prompt builder would choose it now, from ContextMeter,
// plus the draft, estimated here as Go estimates it, and as much of the attached documents as
// fits beside them: the builder sends their most relevant parts), and whether
// the draft is too long to be a message (more than fits, or over the longest message Hermes
// stores), in which case it is offered as an attached document instead.
import type { DocumentInfo } from './attachment';
import { estimateTokens } from './tokens';

/** App.ContextMeter's answer (app/contextmeter.go). */
export interface MeterInput {
  budget: number;
  used: number;
  contextSize?: number;
  model?: string;
  maxMessageBytes?: number;
}

export interface Meter {
  /** The conversation, the documents and the draft. */
  total: number;
  budget: number;
  /** Of the budget, 0..100 (100 when over). */
  percent: number;
  level: 'ok' | 'warn' | 'over';
  /** What a message may take now: the budget less the conversation (documents give way). */
  room: number;
  draft: number;
}

function docTokens(documents: DocumentInfo[]): number {
  return documents.reduce((n, d) => n + (d.tokens > 0 ? d.tokens : 0), 0);
}

/** meterOf's estimate may be an incrementalEstimator (the composer's, following its draft). */
export function meterOf(
  m: MeterInput | null | undefined,
  draft: string,
  documents: DocumentInfo[] = [],
  estimate: (s: string) => number = estimateTokens,
): Meter | null {
  if (!m || !(m.budget > 0)) return null;
  const d = estimate(draft);
  const used = Math.max(0, m.used);
  const room = Math.max(0, m.budget - used);
  // Attached documents give way: the prompt builder sends the parts most relevant to the
  // message that fit in what is left, so they never push the message out.
  const docs = Math.min(docTokens(documents), Math.max(0, room - d));
  const total = used + docs + d;
  const percent = Math.min(100, Math.round((total / m.budget) * 1000) / 10);
  const level = total > m.budget ? 'over' : total > 0.9 * m.budget ? 'warn' : 'ok';
  return { total, budget: m.budget, percent, level, room, draft: d };
}

const utf8 = new TextEncoder();

/**
 * Whether text (the draft with what is being pasted) is too long to send as a message: its
 * tokens are more than the room left, or its bytes more than the longest message. null when it
 * fits (or nothing is known).
 */
export function longInput(
  m: MeterInput | null | undefined,
  text: string,
  documents: DocumentInfo[] = [],
): { tokens: number; pasted: (t: string) => number } | null {
  const meter = meterOf(m, text, documents);
  if (!meter) return null;
  const tooBig = !!m?.maxMessageBytes && text.length * 3 > m.maxMessageBytes && utf8.encode(text).length > m.maxMessageBytes;
  if (meter.draft <= meter.room && !tooBig) return null;
  return { tokens: meter.draft, pasted: estimateTokens };
}
