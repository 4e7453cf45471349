// App-wide events that cross the React tree: the API client raises
// "logged-out" (SPEC §4) and screens listen for "reload" (refresh buttons,
// the open-ticket counter).

export type AppEventName = 'logged-out' | 'reload';

const target = new EventTarget();

export function emitAppEvent(name: AppEventName): void {
  target.dispatchEvent(new Event(name));
}

export function onAppEvent(name: AppEventName, handler: () => void): () => void {
  const listener = () => handler();
  target.addEventListener(name, listener);
  return () => target.removeEventListener(name, listener);
}
