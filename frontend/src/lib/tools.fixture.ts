// Test data for the tool tests (not part of the app).
import type { ToolsAnnotations } from './backend';

/** A tool's annotations as Go sends them: every flag present, false unless given. */
export function annotations(over: Partial<ToolsAnnotations> = {}): ToolsAnnotations {
  return { read_only: false, destructive: false, open_world: false, command: false, shell: false, ...over };
}
