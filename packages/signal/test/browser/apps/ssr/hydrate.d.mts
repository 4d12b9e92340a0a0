// Types of hydrate.mjs.
export declare function hydrate(
  eddy: typeof import('@eddy/signal'),
  doc?: Document,
  state?: Record<string, any>,
): { store: Record<string, any>; bindings: { dispose(): void }[] }
