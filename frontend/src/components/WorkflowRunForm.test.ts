import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import WorkflowRunForm from './WorkflowRunForm.svelte';
import { WorkflowsStore } from '../lib/workflows.svelte';
import { fakeApi, noInputs, resetPassword } from '../lib/workflows.fixture';

function field(container: HTMLElement, name: string): HTMLInputElement {
  return container.querySelector(`[data-field="${name}"]`) as HTMLInputElement;
}

describe('WorkflowRunForm', () => {
  it('makes the fields from the inputs schema, required ones marked', () => {
    const store = new WorkflowsStore({ api: fakeApi() });
    const { getAllByTestId, container } = render(WorkflowRunForm, { workflow: resetPassword, store });
    const fields = getAllByTestId('wf-field');
    expect(fields.map((f) => [f.dataset.name, f.dataset.kind])).toEqual([
      ['phone', 'string'],
      ['channel', 'enum'],
      ['attempts', 'integer'],
      ['urgent', 'boolean'],
      ['extra', 'json'],
    ]);
    expect(fields[0].querySelector('label')!.textContent).toContain('Phone number*');
    expect(fields[0].textContent).toContain('With the country code.');
    expect(fields[2].querySelector('.req')).toBeNull();
    expect([...(field(container, 'channel') as unknown as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      '— choose —',
      'sms',
      'voice',
    ]);
    expect(field(container, 'urgent').type).toBe('checkbox');
    expect(field(container, 'extra').tagName).toBe('TEXTAREA');
    // The first field has the focus.
    expect(document.activeElement).toBe(field(container, 'phone'));
  });

  it('checks what was typed before running, and runs with typed inputs', async () => {
    const api = fakeApi();
    const store = new WorkflowsStore({ api });
    const { getByTestId, getAllByTestId, queryByTestId, container } = render(WorkflowRunForm, { workflow: resetPassword, store });
    await fireEvent.click(getByTestId('wf-form-run'));
    expect(api.RunWorkflow).not.toHaveBeenCalled();
    expect(getAllByTestId('wf-field-problem').map((p) => p.textContent)).toEqual(['Fill this in.', 'Fill this in.']);
    expect(getByTestId('wf-form-invalid').textContent).toBe('Fix the fields marked in red.');
    expect(field(container, 'phone').getAttribute('aria-invalid')).toBe('true');
    // The first field with a problem gets the focus.
    field(container, 'attempts').focus();
    await fireEvent.click(getByTestId('wf-form-run'));
    expect(document.activeElement).toBe(field(container, 'phone'));

    await fireEvent.input(field(container, 'phone'), { target: { value: '555-0100' } });
    await fireEvent.input(field(container, 'attempts'), { target: { value: '7' } });
    await fireEvent.change(field(container, 'channel'), { target: { value: '1' } });
    expect(getAllByTestId('wf-field-problem').map((p) => p.textContent)).toEqual(['At most 5.']);
    await fireEvent.input(field(container, 'attempts'), { target: { value: '2' } });
    await fireEvent.click(field(container, 'urgent'));
    expect(queryByTestId('wf-field-problem')).toBeNull();
    await fireEvent.click(getByTestId('wf-form-run'));
    expect(api.RunWorkflow).toHaveBeenCalledWith('', 'reset_password', { phone: '555-0100', channel: 'voice', attempts: 2, urgent: true });
  });

  it('shows the backend’s refusal', async () => {
    const api = fakeApi({ RunWorkflow: vi.fn(async () => Promise.reject(new Error('invalid workflow input: phone: does not match'))) });
    const store = new WorkflowsStore({ api });
    const { getByTestId } = render(WorkflowRunForm, { workflow: noInputs, store, sessionId: 's1' });
    expect(getByTestId('wf-form-none').textContent).toBe('This workflow takes no inputs.');
    await fireEvent.click(getByTestId('wf-form-run'));
    expect(api.RunWorkflow).toHaveBeenCalledWith('s1', 'tidy', {});
    await waitFor(() => expect(getByTestId('wf-start-error').textContent).toBe('Could not start it: invalid workflow input: phone: does not match'));
  });

  it('takes the inputs as one JSON object when the schema has no simple form', async () => {
    const api = fakeApi();
    const store = new WorkflowsStore({ api });
    const wf = { ...noInputs, inputs: { anyOf: [{ type: 'object' }] } };
    const { getByTestId } = render(WorkflowRunForm, { workflow: wf, store });
    const box = getByTestId('wf-field-json') as HTMLTextAreaElement;
    await fireEvent.input(box, { target: { value: '[1, 2]' } });
    await fireEvent.click(getByTestId('wf-form-run'));
    expect(getByTestId('wf-field-problem').textContent).toContain('Type a JSON object');
    await fireEvent.input(box, { target: { value: '{"a": 1}' } });
    await fireEvent.click(getByTestId('wf-form-run'));
    expect(api.RunWorkflow).toHaveBeenCalledWith('', 'tidy', { a: 1 });
  });
});
