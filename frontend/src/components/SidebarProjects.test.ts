import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor } from '@testing-library/svelte';
import Sidebar from './Sidebar.svelte';
import { ProjectsStore } from '../lib/projects.svelte';
import type { ProjectInfo, ProjectInput, SearchHit, SessionInfo } from '../lib/backend';

function s(id: string, p: Partial<SessionInfo> = {}): SessionInfo {
  return { id, title: `Title ${id}`, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', messageCount: 2, state: 'active', pinned: false, ...p };
}

function setup(sessions: SessionInfo[], extra: Record<string, unknown> = {}) {
  let list: ProjectInfo[] = [{ id: 'p1', name: 'Field trip', system: 'Answer as a field guide.', model: '', knowledge: null, memoryProfile: '', chats: 1, updatedAt: '' }];
  const api = {
    ListProjects: vi.fn(async () => list),
    SaveProject: vi.fn(async (input: ProjectInput): Promise<ProjectInfo> => {
      const name = input.name ?? '';
      if (list.some((p) => p.name.toLowerCase() === name.toLowerCase())) throw new Error(`a project named "${name}" exists already; choose another name`);
      const p = { id: `p${list.length + 1}`, name, system: input.system ?? '', model: input.model ?? '', knowledge: null, memoryProfile: '', chats: 0, updatedAt: '' };
      list = [...list, p];
      return p;
    }),
    MoveToProject: vi.fn(async (_p: string, _s: string) => {}),
    DeleteProject: vi.fn(async (_id: string, deleteChats: boolean) => ({ project: 'Field trip', kept: deleteChats ? 0 : 1, deleted: [] })),
    ...extra,
  };
  const changed = vi.fn(async () => {});
  const projects = new ProjectsStore(api, changed);
  const onnewin = vi.fn(async (_id: string) => {});
  const r = render(Sidebar, {
    sessions,
    currentId: '',
    searchDelayMs: 0,
    onselect: vi.fn(),
    onnew: vi.fn(),
    onsearch: vi.fn(async (): Promise<SearchHit[]> => []),
    onopenhit: vi.fn(),
    onrename: vi.fn(async () => {}),
    onpin: vi.fn(async () => {}),
    onarchive: vi.fn(async () => {}),
    ondelete: vi.fn(async () => {}),
    onexport: vi.fn(async () => {}),
    projects,
    onnewin,
  });
  return { api, projects, changed, onnewin, ...r };
}

describe('projects in the sidebar', () => {
  it('lists a project with its chats folded, and takes them out of the date groups', async () => {
    const { projects, getByTestId, getAllByTestId, queryByTestId } = setup([s('a', { projectId: 'p1' }), s('b')]);
    await projects.load();
    await waitFor(() => getByTestId('project'));
    const groupRows = getByTestId('session-list').querySelectorAll('[data-testid="session-row"]');
    expect([...groupRows].map((r) => (r as HTMLElement).dataset.sessionId)).toEqual(['b']);
    expect(queryByTestId('project-chats')).toBeNull();
    await fireEvent.click(getByTestId('project-toggle'));
    expect(getByTestId('project-toggle').getAttribute('aria-expanded')).toBe('true');
    expect(getAllByTestId('project-chats')[0].textContent).toContain('Title a');
  });

  it('creates a project, saying why a name is refused', async () => {
    const { api, projects, getByTestId, queryByTestId } = setup([]);
    await projects.load();
    await fireEvent.click(getByTestId('project-new'));
    await fireEvent.input(getByTestId('project-name'), { target: { value: 'field TRIP' } });
    await fireEvent.click(getByTestId('project-save'));
    await waitFor(() => expect(getByTestId('project-error').textContent).toContain('exists already'));
    await fireEvent.input(getByTestId('project-name'), { target: { value: 'Kitchen' } });
    await fireEvent.input(getByTestId('project-system'), { target: { value: 'Answer as a cook.' } });
    await fireEvent.click(getByTestId('project-save'));
    await waitFor(() => expect(queryByTestId('project-dialog')).toBeNull());
    expect(api.SaveProject).toHaveBeenLastCalledWith({ id: undefined, name: 'Kitchen', system: 'Answer as a cook.', model: '', knowledge: null, memoryProfile: '' });
    expect(projects.list.map((p) => p.name)).toEqual(['Field trip', 'Kitchen']);
  });

  it('sets the knowledge its chats may cite and their memory profile', async () => {
    const { api, projects, getByTestId, queryByTestId } = setup([], {
      KBList: vi.fn(async () => [{ name: 'manuals' }, { name: 'forms' }]),
      MemoryProfiles: vi.fn(async () => [{ name: 'personal' }, { name: 'work' }]),
    });
    await projects.load();
    await fireEvent.click(getByTestId('project-new'));
    await fireEvent.input(getByTestId('project-name'), { target: { value: 'Kitchen' } });
    await waitFor(() => getByTestId('project-knowledge'));
    await fireEvent.change(getByTestId('project-knowledge'), { target: { value: 'none' } });
    await fireEvent.change(getByTestId('project-memory-profile'), { target: { value: 'work' } });
    await fireEvent.click(getByTestId('project-save'));
    await waitFor(() => expect(queryByTestId('project-dialog')).toBeNull());
    expect(api.SaveProject).toHaveBeenLastCalledWith({ id: undefined, name: 'Kitchen', system: '', model: '', knowledge: [], memoryProfile: 'work' });
  });

  it('moves a chat from its menu and deletes a project keeping or erasing its chats', async () => {
    const { api, projects, changed, getByTestId, getAllByTestId, queryByTestId } = setup([s('b')]);
    await projects.load();
    await fireEvent.click(getAllByTestId('session-menu')[0]);
    await fireEvent.click(document.querySelector('[data-action="move"]') as HTMLElement);
    const select = getByTestId('project-move-select') as HTMLSelectElement;
    await fireEvent.change(select, { target: { value: 'p1' } });
    await fireEvent.click(getByTestId('project-move-ok'));
    await waitFor(() => expect(api.MoveToProject).toHaveBeenCalledWith('p1', 'b'));
    expect(changed).toHaveBeenCalled();
    await fireEvent.click(getByTestId('project-delete'));
    expect(getByTestId('project-delete-dialog').textContent).toContain('What should happen to them?');
    await fireEvent.click(getByTestId('project-delete-chats'));
    expect(getByTestId('project-delete-ok').textContent).toBe('Delete the project and its chats');
    await fireEvent.click(getByTestId('project-delete-ok'));
    await waitFor(() => expect(api.DeleteProject).toHaveBeenCalledWith('p1', true));
    await waitFor(() => expect(queryByTestId('project-delete-dialog')).toBeNull());
  });
});
