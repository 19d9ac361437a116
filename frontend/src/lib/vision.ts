// Whether the next message can go to its model: images need a model that can see (Ollama's
// "vision" capability). Said in the composer before sending, in the words the backend's refusal
// (model_cannot_see) has, naming the installed models that can see.
import type { ModelDetail } from './backend';
import { isImage, type DocumentInfo } from './attachment';
import { errorText } from './errors';
import type { Lang } from './i18n.svelte';

function can(d: Pick<ModelDetail, 'capabilities'>, c: string): boolean {
  return (d.capabilities ?? []).some((x) => String(x).toLowerCase() === c);
}

function same(a: string, b: string): boolean {
  const short = (s: string) => s.replace(/:latest$/, '');
  return short(a) === short(b);
}

/**
 * Why the documents cannot be sent to model ('' when they can, or when the model is not in the
 * list: the backend then decides). The installed chat models that can see are named.
 */
export function visionBlock(docs: readonly DocumentInfo[], model: string, models: readonly ModelDetail[], lang: Lang): string {
  if (!model || !docs.some(isImage)) return '';
  const m = models.find((x) => same(x.name, model));
  if (!m || can(m, 'vision')) return '';
  const seeing = models.filter((x) => can(x, 'vision') && (can(x, 'completion') || can(x, 'chat'))).map((x) => x.name.replace(/:latest$/, ''));
  return errorText('model_cannot_see', { model, models: seeing.join(', ') }, '', lang);
}
