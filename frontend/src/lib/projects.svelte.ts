// The sidebar's projects: chats grouped with their own defaults (app/projects.go). The store
// keeps the list, which projects are open, and does what the sidebar asks (create, change,
// move a chat, delete keeping or erasing its chats), reporting errors in words.
import { errorMessage, type Api, type ProjectDeleteReceipt, type ProjectInfo, type ProjectInput, type SessionInfo } from './backend';

export type ProjectsApi = Pick<Api, 'ListProjects' | 'SaveProject' | 'MoveToProject' | 'DeleteProject'> &
  Partial<Pick<Api, 'KBList' | 'MemoryProfiles'>>;

export class ProjectsStore {
  list = $state<ProjectInfo[]>([]);
  /** Projects shown open in the sidebar (their chats listed). */
  open = $state<Record<string, boolean>>({});
  error = $state('');

  #api: ProjectsApi;
  /** Called after a change to which chat is in which project (the chat list reloads). */
  #changed: () => Promise<void>;

  constructor(api: ProjectsApi, changed: () => Promise<void>) {
    this.#api = api;
    this.#changed = changed;
  }

  async load(): Promise<void> {
    try {
      this.list = (await this.#api.ListProjects()) ?? [];
      this.error = '';
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  /** The chats of a project among those the sidebar has. */
  chatsOf(p: ProjectInfo, sessions: SessionInfo[]): SessionInfo[] {
    return sessions.filter((s) => s.projectId === p.id);
  }

  toggle(id: string): void {
    this.open = { ...this.open, [id]: !this.open[id] };
  }

  /** Creates or changes a project; throws the backend's words for the dialog to show. */
  async save(input: ProjectInput): Promise<ProjectInfo> {
    const p = await this.#api.SaveProject(input);
    this.open = { ...this.open, [p.id]: true };
    await this.load();
    return p;
  }

  /** What a project's dialog offers: the knowledge collections and the memory profiles (none when unknown). */
  async options(): Promise<{ collections: string[]; profiles: string[] }> {
    const [kb, profiles] = await Promise.all([
      this.#api.KBList?.().catch(() => []) ?? [],
      this.#api.MemoryProfiles?.().catch(() => []) ?? [],
    ]);
    return { collections: kb.map((c) => c.name), profiles: profiles.map((p) => p.name) };
  }

  /** Puts a chat in a project ('' takes it out). */
  async move(projectId: string, sessionId: string): Promise<void> {
    await this.#api.MoveToProject(projectId, sessionId);
    if (projectId) this.open = { ...this.open, [projectId]: true };
    await Promise.all([this.load(), this.#changed()]);
  }

  async remove(id: string, deleteChats: boolean): Promise<ProjectDeleteReceipt> {
    const r = await this.#api.DeleteProject(id, deleteChats);
    await Promise.all([this.load(), this.#changed()]);
    return r;
  }
}
