import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/svelte';
import ApprovalDialog from './ApprovalDialog.svelte';
import type { ApprovalPrompt } from '../lib/backend';
import { annotations } from '../lib/tools.fixture';

function prompt(p: Partial<ApprovalPrompt> = {}): ApprovalPrompt {
  return {
    id: 'ap1',
    request_id: 'r1',
    session_id: 's1',
    call_id: 'c1',
    tool: 'shout',
    description: 'Print a message on the console.',
    args: { text: 'hello' },
    annotations: annotations({ command: true }),
    definition_hash: 'h',
    ...p,
  };
}

describe('ApprovalDialog', () => {
  it('shows the tool, its description, why it asks and the full arguments', () => {
    const long = 'x'.repeat(5000) + 'END';
    const { getByTestId } = render(ApprovalDialog, {
      prompt: prompt({ args: { text: long, nested: { list: [1, 2, 3] } }, annotations: annotations({ destructive: true, open_world: true, command: true }) }),
      onanswer: vi.fn(),
    });
    expect(getByTestId('approval-dialog').getAttribute('role')).toBe('alertdialog');
    expect(getByTestId('approval-tool').textContent).toBe('shout');
    expect(getByTestId('approval-description').textContent).toBe('Print a message on the console.');
    const reasons = [...getByTestId('approval-why').querySelectorAll('li')].map((li) => li.dataset.reason);
    expect(reasons).toEqual(['approval.why.destructive', 'approval.why.open_world', 'approval.why.command']);
    const args = getByTestId('approval-args');
    expect(args.tagName).toBe('PRE');
    // Never truncated: the whole value is there, pretty-printed.
    expect(args.textContent).toBe(JSON.stringify({ text: long, nested: { list: [1, 2, 3] } }, null, 2));
    expect(args.textContent).toContain('END');
  });

  it('shows HTML in the arguments as text', () => {
    const evil = '<img src=x onerror="alert(1)"><script>alert(2)</script><b>bold</b>';
    const { getByTestId } = render(ApprovalDialog, {
      prompt: prompt({ args: { text: evil }, description: '<i>desc</i>', tool: '<b>t</b>' }),
      onanswer: vi.fn(),
    });
    const dlg = getByTestId('approval-dialog');
    expect(dlg.querySelector('img, script, b, i')).toBeNull();
    expect(getByTestId('approval-args').textContent).toContain(evil.replace(/"/g, '\\"'));
    expect(getByTestId('approval-description').textContent).toBe('<i>desc</i>');
  });

  it('focuses Deny by default and denies on Esc', async () => {
    const onanswer = vi.fn();
    const { getByTestId } = render(ApprovalDialog, { prompt: prompt(), onanswer });
    expect(document.activeElement).toBe(getByTestId('approval-deny'));
    await fireEvent.keyDown(getByTestId('approval-dialog'), { key: 'Escape' });
    expect(onanswer).toHaveBeenCalledWith(false, 'once');
    // A second answer is ignored.
    await fireEvent.click(getByTestId('approval-once'));
    expect(onanswer).toHaveBeenCalledTimes(1);
  });

  it('allows once or for the session', async () => {
    const once = vi.fn();
    const a = render(ApprovalDialog, { prompt: prompt(), onanswer: once });
    await fireEvent.click(a.getByTestId('approval-once'));
    expect(once).toHaveBeenCalledWith(true, 'once');
    a.unmount();
    const session = vi.fn();
    const b = render(ApprovalDialog, { prompt: prompt({ id: 'ap2' }), onanswer: session, waiting: 2 });
    expect(b.getByTestId('approval-more').textContent).toContain('2');
    await fireEvent.click(b.getByTestId('approval-session'));
    expect(session).toHaveBeenCalledWith(true, 'session');
  });

  it('keeps Tab inside the dialog, in order Deny, Allow once, Allow for this session', async () => {
    const { getByTestId } = render(ApprovalDialog, { prompt: prompt(), onanswer: vi.fn() });
    const buttons = [...getByTestId('approval-dialog').querySelectorAll('.actions button')].map((b) => (b as HTMLElement).dataset.testid);
    expect(buttons).toEqual(['approval-deny', 'approval-once', 'approval-session']);
    getByTestId('approval-session').focus();
    await fireEvent.keyDown(getByTestId('approval-dialog'), { key: 'Tab' });
    // Wraps to the first focusable element: the scrollable arguments.
    expect(document.activeElement).toBe(getByTestId('approval-args'));
  });

  describe('web mode: a tool that runs a program needs the one-time code', () => {
    it('says so before the first Allow, then asks for the code the terminal shows', async () => {
      const onanswer = vi.fn();
      const { getByTestId, queryByTestId, rerender } = render(ApprovalDialog, { prompt: prompt(), needsCode: true, onanswer });
      expect(getByTestId('approval-code-hint').textContent).toContain('hermes serve');
      expect(queryByTestId('approval-code')).toBeNull();
      await fireEvent.click(getByTestId('approval-session'));
      expect(onanswer).toHaveBeenCalledWith(true, 'session');
      // The server printed a code: the field appears, takes the focus, and the button confirms.
      await rerender({ prompt: prompt(), needsCode: true, code: { reason: 'required', triesLeft: null, scope: 'session' }, onanswer });
      const input = getByTestId('approval-code') as HTMLInputElement;
      await Promise.resolve();
      await new Promise((r) => setTimeout(r, 0));
      expect(document.activeElement).toBe(input);
      expect(getByTestId('approval-code-message').textContent).toContain('6-digit code');
      expect(queryByTestId('approval-once')).toBeNull();
      // An empty code is not sent (it would only print a new one).
      await fireEvent.click(getByTestId('approval-code-ok'));
      expect(getByTestId('approval-code-empty')).toBeTruthy();
      expect(onanswer).toHaveBeenCalledTimes(1);
      await fireEvent.input(input, { target: { value: '123 456' } });
      await fireEvent.keyDown(input, { key: 'Enter' });
      expect(onanswer).toHaveBeenLastCalledWith(true, 'session', '123456');
    });

    it('shows a wrong code with the tries left, and locks the confirm button when locked', async () => {
      const onanswer = vi.fn();
      const { getByTestId, queryByTestId, rerender } = render(ApprovalDialog, {
        prompt: prompt(),
        needsCode: true,
        code: { reason: 'wrong', triesLeft: 2, scope: 'once' },
        onanswer,
      });
      expect(getByTestId('approval-code-message').textContent).toContain('2 tries left');
      expect(getByTestId('approval-code-message').getAttribute('role')).toBe('alert');
      await rerender({ prompt: prompt(), needsCode: true, code: { reason: 'locked', triesLeft: null, scope: 'once' }, onanswer });
      expect(getByTestId('approval-code-message').textContent).toContain('hermes mcp approve NAME');
      expect(queryByTestId('approval-code')).toBeNull();
      expect((getByTestId('approval-code-ok') as HTMLButtonElement).disabled).toBe(true);
      // Deny still works.
      await fireEvent.click(getByTestId('approval-deny'));
      expect(onanswer).toHaveBeenCalledWith(false, 'once');
    });

    it('needs no code in the desktop window', () => {
      const { queryByTestId } = render(ApprovalDialog, { prompt: prompt(), onanswer: vi.fn() });
      expect(queryByTestId('approval-code-hint')).toBeNull();
      expect(queryByTestId('approval-code')).toBeNull();
    });
  });
});
