// Types of server.mjs (plain JS so that Node and an iframe page load it as it is).
export declare const esc: (s: unknown) => string
export declare const island: (state: unknown) => string
export declare const naiveIsland: (state: unknown) => string
export declare const initialState: () => Record<string, any>
export declare function createStore(eddy: typeof import('@eddy/signal'), state: Record<string, any>): Record<string, any>
export declare const snapshot: (store: Record<string, any>) => Record<string, any>
export declare function renderPage(store: Record<string, any>, sanitize?: (html: string) => string): string
export declare const renderDocument: (store: Record<string, any>, head?: string, tail?: string) => string
