import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import ActivityPanel from './ActivityPanel.svelte';
import AgentsPanel from './AgentsPanel.svelte';
import { ActivityStore } from '../lib/tools.svelte';
import { AgentsStore } from '../lib/agents.svelte';
import { WorkflowsStore } from '../lib/workflows.svelte';
import { fakeApi } from '../lib/workflows.fixture';
import { fakeAgentsApi } from '../lib/agents.fixture';

describe('AgentsPanel', () => {
  it('lists the agents with tools, memory, built-in badge and switch; the problems; the file', async () => {
    const store = new AgentsStore(fakeAgentsApi());
    await store.load();
    const { getAllByTestId, getByTestId } = render(AgentsPanel, { store });
    const items = getAllByTestId('agent-item');
    expect(items.map((i) => i.dataset.name)).toEqual(['editor', 'researcher', 'translator']);
    const researcher = items[1];
    expect(researcher.querySelector('[data-testid="agent-builtin"]')).not.toBeNull();
    expect(researcher.querySelector('[data-testid="agent-tools"]')!.textContent).toContain('session_search');
    expect(researcher.querySelector('[data-testid="agent-memory"]')!.textContent).toBe('reads memories');
    // A built-in cannot be deleted; the one from agents.yaml can.
    expect(researcher.querySelector('[data-testid="agent-delete"]')).toBeNull();
    expect(items[2].querySelector('[data-testid="agent-delete"]')).not.toBeNull();
    const sw = items[2].querySelector<HTMLInputElement>('[data-testid="agent-switch"]')!;
    expect(sw.checked).toBe(false);
    expect(sw.getAttribute('aria-label')).toBe('Let the assistant delegate to translator');
    expect(getByTestId('agents-problem').dataset.line).toBe('12');
    expect(getByTestId('agents-problem').textContent).toContain('max_rounds');
    expect(getByTestId('agents-file').textContent).toContain('/data/agents.yaml');
  });

  it('switches an agent off through the backend', async () => {
    const api = fakeAgentsApi();
    const store = new AgentsStore(api);
    await store.load();
    const { getAllByTestId } = render(AgentsPanel, { store });
    const editor = () => getAllByTestId('agent-item')[0];
    await fireEvent.click(editor().querySelector('[data-testid="agent-switch"]')!);
    expect(api.SetAgentEnabled).toHaveBeenCalledWith('editor', false);
    await waitFor(() => expect(editor().dataset.disabled).toBe('true'));
    expect(editor().querySelector<HTMLInputElement>('[data-testid="agent-switch"]')!.checked).toBe(false);
  });

  it('shows a refused save in the form and keeps everything typed', async () => {
    const api = fakeAgentsApi({
      SaveAgent: vi.fn(async () => Promise.reject(new Error('name: use lower-case letters, digits and _'))),
    });
    const store = new AgentsStore(api);
    await store.load();
    const { getByTestId } = render(AgentsPanel, { store });
    await fireEvent.click(getByTestId('agents-add'));
    expect(document.activeElement).toBe(getByTestId('agent-form-name'));
    await fireEvent.input(getByTestId('agent-form-name'), { target: { value: 'Bad Name' } });
    await fireEvent.input(getByTestId('agent-form-system'), { target: { value: 'You check facts.\nCarefully.' } });
    await fireEvent.input(getByTestId('agent-form-tools'), { target: { value: 'session_search, calculator' } });
    await fireEvent.change(getByTestId('agent-form-memory'), { target: { value: 'read' } });
    await fireEvent.click(getByTestId('agent-form-save'));
    await waitFor(() => expect(getByTestId('agent-form-error').textContent).toContain('lower-case'));
    expect(api.SaveAgent).toHaveBeenCalledWith(
      '',
      expect.objectContaining({ name: 'Bad Name', tools: ['session_search', 'calculator'], memory: 'read', system: 'You check facts.\nCarefully.' }),
    );
    expect((getByTestId('agent-form-name') as HTMLInputElement).value).toBe('Bad Name');
    expect((getByTestId('agent-form-system') as HTMLTextAreaElement).value).toBe('You check facts.\nCarefully.');
    expect((getByTestId('agent-form-tools') as HTMLInputElement).value).toBe('session_search, calculator');
  });

  it('edits an agent from its values and asks before deleting', async () => {
    const api = fakeAgentsApi();
    const store = new AgentsStore(api);
    await store.load();
    const { getAllByTestId, getByTestId, queryByTestId } = render(AgentsPanel, { store });
    await fireEvent.click(getAllByTestId('agent-item')[2].querySelector('[data-testid="agent-edit"]')!);
    expect((getByTestId('agent-form-name') as HTMLInputElement).value).toBe('translator');
    expect((getByTestId('agent-form-model') as HTMLInputElement).value).toBe('qwen2.5:7b');
    expect((getByTestId('agent-form-max-rounds') as HTMLInputElement).value).toBe('2');
    await fireEvent.click(getByTestId('agent-form-cancel'));
    expect(queryByTestId('agent-form')).toBeNull();

    await fireEvent.click(getAllByTestId('agent-item')[2].querySelector('[data-testid="agent-delete"]')!);
    expect(getByTestId('agent-confirm-delete')).toBeTruthy();
    expect(api.DeleteAgent).not.toHaveBeenCalled();
    await fireEvent.click(getByTestId('agent-delete-ok'));
    expect(api.DeleteAgent).toHaveBeenCalledWith('translator');
  });
});

describe('ActivityPanel with agents', () => {
  it('has an Agents tab; arrow keys, Home and End move over the three tabs', async () => {
    const api = fakeAgentsApi();
    const agents = new AgentsStore(api);
    const { getByTestId, queryByTestId } = render(ActivityPanel, {
      store: new ActivityStore({ ToolActivity: vi.fn(async () => []) }),
      tools: [],
      sessionId: '',
      workflows: new WorkflowsStore({ api: fakeApi() }),
      agents,
      onrefresh: vi.fn(),
      onclose: vi.fn(),
    });
    const sel = (id: string) => getByTestId(`activity-tab-${id}`).getAttribute('aria-selected');
    await fireEvent.keyDown(getByTestId('activity-tab-calls'), { key: 'ArrowLeft' });
    expect(sel('agents')).toBe('true');
    expect(document.activeElement).toBe(getByTestId('activity-tab-agents'));
    await waitFor(() => expect(getByTestId('agents-panel').textContent).toContain('researcher'));
    expect(api.ListAgents).toHaveBeenCalledTimes(1);
    expect(queryByTestId('activity-filter-tool')).toBeNull();
    await fireEvent.keyDown(getByTestId('activity-tab-agents'), { key: 'ArrowRight' });
    expect(sel('calls')).toBe('true');
    await fireEvent.keyDown(getByTestId('activity-tab-calls'), { key: 'ArrowRight' });
    expect(sel('workflows')).toBe('true');
    await fireEvent.keyDown(getByTestId('activity-tab-workflows'), { key: 'End' });
    expect(sel('agents')).toBe('true');
    await fireEvent.click(getByTestId('activity-refresh'));
    await waitFor(() => expect(api.ListAgents).toHaveBeenCalledTimes(2));
    await fireEvent.keyDown(getByTestId('activity-tab-agents'), { key: 'Home' });
    expect(sel('calls')).toBe('true');
    expect(getByTestId('activity-filter-tool')).toBeTruthy();
  });
});
