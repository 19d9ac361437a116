import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import TemplateMenu from './TemplateMenu.svelte';
import type { McpPromptInfo } from '../lib/backend';

const prompts: McpPromptInfo[] = [
  { server: 'everything', name: 'simple-prompt', title: 'Simple Prompt', description: 'A prompt with no arguments' },
  {
    server: 'everything',
    name: 'args-prompt',
    title: 'Arguments Prompt',
    arguments: [{ name: 'city', description: 'Name of the city', required: true }, { name: 'state', required: false }],
  },
];

describe('TemplateMenu', () => {
  it('asks for a template’s arguments, fetches it and hands over its text', async () => {
    const api = { MCPGetPrompt: vi.fn(async () => ({ messages: [{ role: 'user', text: "What's weather in Paris?" }] })) };
    const oninsert = vi.fn();
    const { getByTestId, getAllByTestId, queryByTestId } = render(TemplateMenu, { prompts, api, oninsert });
    await fireEvent.click(getByTestId('templates-button'));
    const items = getAllByTestId('template-item');
    expect(items.map((i) => i.dataset.name)).toEqual(['simple-prompt', 'args-prompt']);
    await waitFor(() => expect(document.activeElement).toBe(items[0]));
    // Arrow keys move through the menu.
    await fireEvent.keyDown(items[0], { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    await fireEvent.click(items[1]);
    expect(queryByTestId('templates-menu')).toBeNull();
    const insert = getByTestId('template-insert') as HTMLButtonElement;
    expect(insert.disabled).toBe(true); // city is required
    const city = getAllByTestId('template-arg').find((e) => e.dataset.arg === 'city')!;
    await fireEvent.input(city, { target: { value: 'Paris' } });
    expect(insert.disabled).toBe(false);
    await fireEvent.click(insert);
    await waitFor(() => expect(oninsert).toHaveBeenCalledWith("What's weather in Paris?"));
    expect(api.MCPGetPrompt).toHaveBeenCalledWith('everything', 'args-prompt', { city: 'Paris' });
    await waitFor(() => expect(queryByTestId('template-dialog')).toBeNull());
  });

  it('fetches a template without arguments at once and shows errors', async () => {
    const api = { MCPGetPrompt: vi.fn(async () => Promise.reject(new Error('server is not ready'))) };
    const oninsert = vi.fn();
    const { getByTestId, getAllByTestId } = render(TemplateMenu, { prompts, api, oninsert });
    await fireEvent.click(getByTestId('templates-button'));
    await fireEvent.click(getAllByTestId('template-item')[0]);
    await waitFor(() => expect(getByTestId('templates-error').textContent).toContain('server is not ready'));
    expect(api.MCPGetPrompt).toHaveBeenCalledWith('everything', 'simple-prompt', {});
    expect(oninsert).not.toHaveBeenCalled();
  });

  it('closes the menu on Esc and gives the focus back', async () => {
    const { getByTestId, getAllByTestId, queryByTestId } = render(TemplateMenu, {
      prompts,
      api: { MCPGetPrompt: vi.fn() },
      oninsert: vi.fn(),
    });
    await fireEvent.click(getByTestId('templates-button'));
    await fireEvent.keyDown(getAllByTestId('template-item')[0], { key: 'Escape' });
    expect(queryByTestId('templates-menu')).toBeNull();
    expect(document.activeElement).toBe(getByTestId('templates-button'));
  });
});
