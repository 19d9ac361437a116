import { serviceOf } from './bindings.gen';

/** A bound method as Wails puts it on the page. */
type Bound = (...args: unknown[]) => Promise<unknown>;

/**
 * window.go.app as Wails fills it, holding these methods, each on the bound
 * service bindgen puts it on (serviceOf): App, or a domain's service. For tests
 * of the window's transport.
 */
export function boundServices(methods: Record<string, (...args: never[]) => unknown>): Record<string, Record<string, Bound>> {
  const app: Record<string, Record<string, Bound>> = { App: {} };
  for (const [name, fn] of Object.entries(methods)) (app[serviceOf[name] ?? 'App'] ??= {})[name] = fn as Bound;
  return app;
}
