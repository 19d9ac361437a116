// A form made from a JSON Schema (a workflow's inputs): one field per property of an object
// schema — text, number, whole number, yes/no, a choice among fixed values — and a JSON text box
// for anything else. The checks here only help the user; the backend validates the inputs again.
import type { MessageKey } from './i18n.svelte';

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

export interface FormField {
  name: string;
  /** The schema's title, else the property name. */
  label: string;
  description: string;
  kind: FieldKind;
  required: boolean;
  /** The choices of an enum field (primitives). */
  options?: unknown[];
  /** The declared JSON type of a json field ("object", "array", …), '' when any. */
  jsonType?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** A long text (a multi-line box). */
  long?: boolean;
}

export interface SchemaForm {
  fields: FormField[];
  /**
   * The schema is not an object with properties the form can show (a oneOf, say): the inputs are
   * typed as one JSON object instead.
   */
  whole: boolean;
}

/** What a field holds while it is edited: text for text boxes and selects, a flag for check boxes. */
export type FormValues = Record<string, string | boolean>;

/** One problem with what was typed, as an i18n key with its parameters. */
export interface FieldProblem {
  key: MessageKey;
  params?: Record<string, string | number>;
}

/** The key of the whole-input JSON box in values and problems. */
export const WHOLE = '__inputs__';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function isPrimitive(v: unknown): boolean {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

/** The one JSON type a schema names, leaving out "null" (["string","null"] is "string"). */
function schemaType(s: Obj): string {
  const t = s.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) {
    const rest = t.filter((x) => x !== 'null');
    if (rest.length === 1 && typeof rest[0] === 'string') return rest[0];
  }
  return '';
}

function field(name: string, s: Obj, required: boolean): FormField {
  const f: FormField = {
    name,
    label: typeof s.title === 'string' && s.title.trim() ? s.title.trim() : name,
    description: typeof s.description === 'string' ? s.description : '',
    kind: 'json',
    required,
  };
  if ('default' in s) f.default = s.default;
  const options = Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : null;
  const type = schemaType(s);
  if (options && options.length > 0 && options.every(isPrimitive)) {
    f.kind = 'enum';
    f.options = options;
    return f;
  }
  switch (type) {
    case 'string':
      f.kind = 'string';
      f.minLength = num(s.minLength);
      f.maxLength = num(s.maxLength);
      if (typeof s.pattern === 'string') f.pattern = s.pattern;
      f.long = s.format === 'textarea' || (f.maxLength ?? 0) > 200;
      return f;
    case 'number':
    case 'integer':
      f.kind = type;
      f.minimum = num(s.minimum);
      f.maximum = num(s.maximum);
      f.exclusiveMinimum = num(s.exclusiveMinimum);
      f.exclusiveMaximum = num(s.exclusiveMaximum);
      return f;
    case 'boolean':
      f.kind = 'boolean';
      return f;
  }
  f.jsonType = type;
  return f;
}

/** Makes the form of a schema. No schema (or an empty one) is a form with no fields. */
export function formFromSchema(schema: unknown): SchemaForm {
  if (schema === null || schema === undefined || (isObj(schema) && Object.keys(schema).length === 0)) {
    return { fields: [], whole: false };
  }
  if (!isObj(schema)) return { fields: [], whole: true };
  const type = schemaType(schema);
  const props = schema.properties;
  const composite = ['oneOf', 'anyOf', 'allOf', 'if', '$ref', 'patternProperties'].some((k) => k in schema);
  if ((type !== '' && type !== 'object') || composite || (props !== undefined && !isObj(props))) {
    return { fields: [], whole: true };
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((x) => typeof x === 'string') : []);
  const fields: FormField[] = [];
  for (const [name, sub] of Object.entries((props as Obj | undefined) ?? {})) {
    fields.push(field(name, isObj(sub) ? sub : {}, required.has(name)));
  }
  // A required property the schema does not describe still needs a value.
  for (const name of required) {
    if (!fields.some((f) => f.name === name)) fields.push(field(name, {}, true));
  }
  // Required fields first, each group in the schema's order (the backend sends the properties
  // sorted by name).
  return { fields: [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)], whole: false };
}

function text(v: unknown): string {
  if (v === undefined) return '';
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v, null, 2) ?? '';
  } catch {
    return '';
  }
}

/** The values a form starts with: the schema's defaults, else empty. */
export function initialValues(form: SchemaForm): FormValues {
  const out: FormValues = {};
  if (form.whole) out[WHOLE] = '{}';
  for (const f of form.fields) {
    switch (f.kind) {
      case 'boolean':
        out[f.name] = f.default === true;
        break;
      case 'enum': {
        const i = f.default === undefined ? -1 : (f.options ?? []).findIndex((o) => o === f.default);
        out[f.name] = i >= 0 ? String(i) : '';
        break;
      }
      case 'number':
      case 'integer':
        out[f.name] = typeof f.default === 'number' ? String(f.default) : '';
        break;
      default:
        out[f.name] = text(f.default);
    }
  }
  return out;
}

/** How an enum choice reads in the select. */
export function optionText(v: unknown): string {
  if (typeof v === 'string') return v;
  return JSON.stringify(v) ?? String(v);
}

function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(want: string, v: unknown): boolean {
  if (!want) return true;
  const got = jsonTypeOf(v);
  return got === want || (want === 'number' && got === 'integer');
}

function checkNumber(f: FormField, raw: string): { value?: number; problem?: FieldProblem } {
  const s = raw.trim();
  const n = s === '' ? NaN : Number(s);
  if (!Number.isFinite(n)) return { problem: { key: 'wf.form.number' } };
  if (f.kind === 'integer' && !Number.isInteger(n)) return { problem: { key: 'wf.form.integer' } };
  if (f.minimum !== undefined && n < f.minimum) return { problem: { key: 'wf.form.min', params: { n: f.minimum } } };
  if (f.exclusiveMinimum !== undefined && n <= f.exclusiveMinimum)
    return { problem: { key: 'wf.form.above', params: { n: f.exclusiveMinimum } } };
  if (f.maximum !== undefined && n > f.maximum) return { problem: { key: 'wf.form.max', params: { n: f.maximum } } };
  if (f.exclusiveMaximum !== undefined && n >= f.exclusiveMaximum)
    return { problem: { key: 'wf.form.below', params: { n: f.exclusiveMaximum } } };
  return { value: n };
}

function checkString(f: FormField, s: string): FieldProblem | null {
  const len = [...s].length;
  if (f.minLength !== undefined && len < f.minLength) return { key: 'wf.form.minLength', params: { n: f.minLength } };
  if (f.maxLength !== undefined && len > f.maxLength) return { key: 'wf.form.maxLength', params: { n: f.maxLength } };
  if (f.pattern) {
    let re: RegExp | null = null;
    try {
      re = new RegExp(f.pattern, 'u');
    } catch {
      re = null; // a pattern this browser cannot read is left to the backend
    }
    if (re && !re.test(s)) return { key: 'wf.form.pattern', params: { pattern: f.pattern } };
  }
  return null;
}

/**
 * Checks what was typed and builds the inputs. Empty optional fields are left out; an
 * unchanged optional check box too. inputs is null when there is a problem.
 */
export function checkForm(
  form: SchemaForm,
  values: FormValues,
): { inputs: Obj | null; problems: Record<string, FieldProblem> } {
  const problems: Record<string, FieldProblem> = {};
  if (form.whole) {
    const raw = String(values[WHOLE] ?? '').trim();
    if (raw === '') return { inputs: {}, problems };
    try {
      const v = JSON.parse(raw);
      if (!isObj(v)) {
        problems[WHOLE] = { key: 'wf.form.object' };
        return { inputs: null, problems };
      }
      return { inputs: v, problems };
    } catch (e) {
      problems[WHOLE] = { key: 'wf.form.json', params: { error: e instanceof Error ? e.message : String(e) } };
      return { inputs: null, problems };
    }
  }
  const inputs: Obj = {};
  for (const f of form.fields) {
    const raw = values[f.name];
    if (f.kind === 'boolean') {
      const on = raw === true;
      if (f.required || f.default !== undefined || on) inputs[f.name] = on;
      continue;
    }
    const s = typeof raw === 'string' ? raw : '';
    if (f.kind === 'string' ? s === '' : s.trim() === '') {
      if (f.required) problems[f.name] = { key: 'wf.form.required' };
      continue;
    }
    switch (f.kind) {
      case 'string': {
        const p = checkString(f, s);
        if (p) problems[f.name] = p;
        else inputs[f.name] = s;
        break;
      }
      case 'number':
      case 'integer': {
        const r = checkNumber(f, s);
        if (r.problem) problems[f.name] = r.problem;
        else inputs[f.name] = r.value;
        break;
      }
      case 'enum': {
        const i = Number(s);
        const opts = f.options ?? [];
        if (!Number.isInteger(i) || i < 0 || i >= opts.length) problems[f.name] = { key: 'wf.form.choose' };
        else inputs[f.name] = opts[i];
        break;
      }
      default: {
        try {
          const v = JSON.parse(s);
          if (!typeMatches(f.jsonType ?? '', v)) problems[f.name] = { key: 'wf.form.jsonType', params: { type: f.jsonType ?? '' } };
          else inputs[f.name] = v;
        } catch (e) {
          problems[f.name] = { key: 'wf.form.json', params: { error: e instanceof Error ? e.message : String(e) } };
        }
      }
    }
  }
  return { inputs: Object.keys(problems).length > 0 ? null : inputs, problems };
}
