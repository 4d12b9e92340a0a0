let n = 0

/**
 * A fresh copy of a package's shipped dist/index.js: its own module instance (a distinct query string makes Vite serve
 * it as another module), as a second installed version, another tab or a page loaded after a host change would have.
 */
export const distCopy = <T>(pkg: 'signal' | 'scheduler'): Promise<T> =>
  // Not `new URL(template, import.meta.url)`: Vite rewrites that form into a glob of its own.
  import(/* @vite-ignore */ import.meta.url.replace(/signal\/test\/browser\/dist-copy\.ts(\?.*)?$/, `${pkg}/dist/index.js?copy=${Date.now()}-${++n}`))
