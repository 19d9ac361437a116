import { serviceOf } from './bindings.gen';

type Fn = (...args: never[]) => unknown;

/**
 * window.go.app as Wails fills it, holding these methods, each on the bound
 * service bindgen puts it on (serviceOf): App, or a domain's service. For tests
 * of the window's transport.
 */
export function boundServices(methods: Record<string, Fn>): Record<string, Record<string, Fn>> {
  const app: Record<string, Record<string, Fn>> = { App: {} };
  for (const [name, fn] of Object.entries(methods)) (app[serviceOf[name] ?? 'App'] ??= {})[name] = fn;
  return app;
}
