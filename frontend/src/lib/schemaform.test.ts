import { describe, expect, it } from 'vitest';
import { WHOLE, checkForm, formFromSchema, initialValues, optionText } from './schemaform';
import { resetPassword } from './workflows.fixture';

describe('formFromSchema', () => {
  it('makes a field per property with its kind, label and required mark', () => {
    const f = formFromSchema(resetPassword.inputs);
    expect(f.whole).toBe(false);
    // Required fields first.
    expect(f.fields.map((x) => [x.name, x.kind, x.required, x.label])).toEqual([
      ['phone', 'string', true, 'Phone number'],
      ['channel', 'enum', true, 'channel'],
      ['attempts', 'integer', false, 'attempts'],
      ['urgent', 'boolean', false, 'urgent'],
      ['extra', 'json', false, 'extra'],
    ]);
    expect(f.fields[0].description).toBe('With the country code.');
    expect(f.fields[2]).toMatchObject({ minimum: 1, maximum: 5 });
    expect(f.fields[1].options).toEqual(['sms', 'voice']);
    expect(f.fields[4].jsonType).toBe('object');
  });

  it('reads nullable types, const, numbers and unknown shapes', () => {
    const f = formFromSchema({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { const: 3 },
        c: { type: 'number', exclusiveMinimum: 0 },
        d: { type: 'array', items: { type: 'string' } },
        e: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        f: { type: 'string', maxLength: 1000 },
      },
      required: ['z'],
    });
    expect(f.fields.map((x) => [x.name, x.kind])).toEqual([
      ['z', 'json'],
      ['a', 'string'],
      ['b', 'enum'],
      ['c', 'number'],
      ['d', 'json'],
      ['e', 'json'],
      ['f', 'string'],
    ]);
    expect(f.fields[6].long).toBe(true);
    expect(f.fields[0].required).toBe(true);
  });

  it('has no fields for no schema or an object without properties, and one JSON box for a composite', () => {
    expect(formFromSchema(null)).toEqual({ fields: [], whole: false });
    expect(formFromSchema({})).toEqual({ fields: [], whole: false });
    expect(formFromSchema({ type: 'object' })).toEqual({ fields: [], whole: false });
    expect(formFromSchema({ oneOf: [{ type: 'object' }] })).toEqual({ fields: [], whole: true });
    expect(formFromSchema({ type: 'array' }).whole).toBe(true);
  });
});

describe('checkForm', () => {
  const form = formFromSchema(resetPassword.inputs);

  it('starts from the defaults', () => {
    const f = formFromSchema({
      type: 'object',
      properties: { n: { type: 'integer', default: 2 }, s: { type: 'string', default: 'x' }, b: { type: 'boolean', default: true }, e: { enum: [1, 2], default: 2 } },
    });
    expect(initialValues(f)).toEqual({ n: '2', s: 'x', b: true, e: '1' });
    expect(initialValues(formFromSchema({ anyOf: [] }))).toEqual({ [WHOLE]: '{}' });
  });

  it('says which required fields are empty', () => {
    const r = checkForm(form, initialValues(form));
    expect(r.inputs).toBeNull();
    expect(r.problems).toEqual({ phone: { key: 'wf.form.required' }, channel: { key: 'wf.form.required' } });
  });

  it('checks numbers, lengths, choices and JSON, and builds typed inputs', () => {
    const v = { ...initialValues(form), phone: '55', attempts: '2.5', channel: '1', extra: '[1]' };
    expect(checkForm(form, v).problems).toEqual({
      phone: { key: 'wf.form.minLength', params: { n: 3 } },
      attempts: { key: 'wf.form.integer' },
      extra: { key: 'wf.form.jsonType', params: { type: 'object' } },
    });
    expect(checkForm(form, { ...v, attempts: '9' }).problems.attempts).toEqual({ key: 'wf.form.max', params: { n: 5 } });
    expect(checkForm(form, { ...v, attempts: 'x' }).problems.attempts).toEqual({ key: 'wf.form.number' });
    expect(checkForm(form, { ...v, extra: '{' }).problems.extra?.key).toBe('wf.form.json');
    const ok = checkForm(form, { ...v, phone: '555-0100', attempts: ' 3 ', urgent: true, extra: '{"a":1}' });
    expect(ok.problems).toEqual({});
    expect(ok.inputs).toEqual({ phone: '555-0100', attempts: 3, channel: 'voice', urgent: true, extra: { a: 1 } });
  });

  it('leaves out empty optional fields and an unticked optional box', () => {
    const r = checkForm(form, { ...initialValues(form), phone: 'abc', channel: '0' });
    expect(r.inputs).toEqual({ phone: 'abc', channel: 'sms' });
  });

  it('checks a pattern, and bounds that exclude', () => {
    const f = formFromSchema({
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[0-9]{4}$' }, x: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 } },
    });
    expect(checkForm(f, { code: '12a4', x: '0' }).problems).toEqual({
      code: { key: 'wf.form.pattern', params: { pattern: '^[0-9]{4}$' } },
      x: { key: 'wf.form.above', params: { n: 0 } },
    });
    expect(checkForm(f, { code: '1234', x: '1' }).problems).toEqual({ x: { key: 'wf.form.below', params: { n: 1 } } });
    expect(checkForm(f, { code: '1234', x: '0.5' }).inputs).toEqual({ code: '1234', x: 0.5 });
  });

  it('takes the whole inputs as one JSON object when the schema has no simple form', () => {
    const f = formFromSchema({ oneOf: [{ type: 'object' }] });
    expect(checkForm(f, { [WHOLE]: '{"a": [1]}' }).inputs).toEqual({ a: [1] });
    expect(checkForm(f, { [WHOLE]: '[1]' }).problems[WHOLE]).toEqual({ key: 'wf.form.object' });
    expect(checkForm(f, { [WHOLE]: 'nope' }).problems[WHOLE]?.key).toBe('wf.form.json');
    expect(checkForm(f, { [WHOLE]: ' ' }).inputs).toEqual({});
  });

  it('writes choices as they read', () => {
    expect(optionText('sms')).toBe('sms');
    expect(optionText(2)).toBe('2');
    expect(optionText(null)).toBe('null');
  });
});
