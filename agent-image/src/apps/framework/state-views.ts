// Views of a state object (checked, normalised, indexed), built once per object: in the daemon
// a state object lives across commands (MemoryStates), so a command that only reads need not
// re-check or re-index what an earlier one already did. With per-command state files every
// load is a fresh object and a view is built each time, as before.
// Rule: a view is shared by every later command on the same object; a command changes a view
// only on its way to a save that replaces the object it came from, or keeps it valid (a save
// of the same object must leave the view true). A command that fails drops the views of the
// states it loaded (MemoryStates), whatever it did to them.
const views = new WeakMap<object, Map<string, unknown>>();

/** A failed command may have changed the views it used: the next command builds them again. */
export function forgetViews(state: object): void {
  views.delete(state);
}

/** A write that stores a new object can hand over the view it already has of it. */
export function setView<T>(state: object, name: string, view: T): void {
  let byName = views.get(state);
  if (!byName) views.set(state, (byName = new Map()));
  byName.set(name, view);
}

export function viewOf<T>(state: object, name: string, build: () => T): T {
  let byName = views.get(state);
  if (!byName) views.set(state, (byName = new Map()));
  if (!byName.has(name)) byName.set(name, build());
  return byName.get(name) as T;
}
