// The panels and dialogs the first screen does not show, each in its own chunk: the page
// parses less before it is drawn, and holds less while idle (README, "Start-up"). A panel's
// file is loaded when it is first opened (a local file: milliseconds).

/** A loader that keeps its component once loaded, and tries again after a failure. */
export function lazy<T>(load: () => Promise<{ default: T }>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    if (!loaded) {
      const p = load().then((m) => m.default);
      p.catch(() => (loaded = undefined));
      loaded = p;
    }
    return loaded;
  };
}

export const panels = {
  settings: lazy(() => import('../components/Settings.svelte')),
  context: lazy(() => import('../components/ContextInspector.svelte')),
  activity: lazy(() => import('../components/ActivityPanel.svelte')),
  mcp: lazy(() => import('../components/McpPanel.svelte')),
  models: lazy(() => import('../components/ModelsPanel.svelte')),
  knowledge: lazy(() => import('../components/KnowledgePanel.svelte')),
  memory: lazy(() => import('../components/MemoryPanel.svelte')),
  shortcuts: lazy(() => import('../components/ShortcutSheet.svelte')),
  chatSettings: lazy(() => import('../components/ChatSettingsDialog.svelte')),
  passage: lazy(() => import('../components/PassageViewer.svelte')),
  exported: lazy(() => import('../components/ExportDialog.svelte')),
  chatImport: lazy(() => import('../components/ChatImportDialog.svelte')),
};

