// Typechecks the ```ts code blocks of the READMEs against the packages' public types (as the unit suite does, in
// packages/*/test/readme.test.ts): each block becomes a module of its own, `{ block }` after its README's preamble
// (the free names its examples assume, declared, never implemented; the block's own declarations shadow them, and
// its imports go first), and `tsc --noEmit` checks them, one README at a time, with `@eddy/*` resolved to the
// packages' entries. A line that is meant to be a type error is marked `// @ts-expect-error` in the
// README; the check fails if it is not one.
//
// It also checks that every export is documented (`undocumented`): a doc comment in the shipped declarations and a
// README section with an example.
//
//   node scripts/readme-check.mjs    prints one line per problem, as README.md:LINE: error TSxxxx: ...
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

const signalNames = ['Signal', 'batch', 'computed', 'configure', 'effect', 'flush', 'settled', 'untracked']
const schedulerNames = ['createQueue', 'loop', 'macrotask', 'microtask', 'monitor', 'probeTurnRate', 'strategy', 'yieldToMain']

/**
 * Each README: `uses` are imported into every block that does not import them itself (a package README's later
 * examples use its exports without repeating the import); `preamble` declares what the examples take as given.
 */
export const readmes = {
  'README.md': {
    uses: {},
    preamble: `
declare function doOneUnitOfWork(): void
declare function shedLoad(): void`,
  },
  'packages/signal/README.md': {
    uses: { '@eddy/signal': signalNames },
    preamble: `
type S<T> = import('@eddy/signal').Signal<T>
declare const count: S<number>, name: S<string>, first: S<string>, last: S<string>, a: S<number>
declare const open: S<boolean>, draft: S<string>
declare const el: HTMLElement, bar: HTMLElement, label: HTMLElement, output: HTMLElement, card: HTMLElement
declare const title: HTMLElement, searchInput: HTMLInputElement, checkbox: HTMLInputElement, form: HTMLFormElement
declare function tick(n: number): void
declare function log(...values: unknown[]): void
declare function expect(value: unknown): { toBe(expected: unknown): void }
declare const bio: S<string>
// As @types/trusted-types declares them: a TrustedHTML is a class with a private brand and no members.
declare class TrustedHTML { private brand: true }
declare const trustedTypes: {
  createPolicy(name: string, rules: { createHTML(html: string): string }): { createHTML(html: string): TrustedHTML }
}`,
    modules: `declare module 'dompurify' {
  class TrustedHTML { private brand: true }
  const DOMPurify: { sanitize(html: string): string; sanitize(html: string, config: { RETURN_TRUSTED_TYPE: true }): TrustedHTML }
  export default DOMPurify
}`,
  },
  'packages/scheduler/README.md': {
    uses: { '@eddy/scheduler': schedulerNames },
    preamble: `
declare const chunks: unknown[], items: unknown[], button: HTMLButtonElement
declare function process(chunk: unknown): void
declare function crunch(item: unknown): Promise<void>
declare function flushRenders(): void
declare function shedLoad(): void
declare function resume(): void
declare function render(text: string, alert: boolean): void`,
  },
}

/** The ```ts blocks of `markdown`: their code and the README line of their first code line (1-based). */
export function blocks(markdown) {
  const found = []
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```ts\s*$/.exec(lines[i])
    if (!open) continue
    const start = i + 1
    while (++i < lines.length && !/^\s*```\s*$/.test(lines[i]));
    if (i == lines.length) throw new Error(`unclosed \`\`\`ts block at line ${start}`)
    // An indented block (inside a list item) is dedented by its fence's indent.
    found.push({ line: start + 1, code: lines.slice(start, i).map((l) => l.slice(open[1].length)).join('\n') })
  }
  return found
}

/**
 * What a block is checked as: on line 1, the imports of `uses` it does not make itself and its own imports (each on
 * one line; blanked where they were); then the preamble; then the block, in braces.
 */
function moduleOf(code, uses, preamble) {
  const own = new Set()
  const hoisted = []
  const body = code.replace(/^import\b.*$/gm, (line) => {
    if (!/\bfrom\s+'[^']+'\s*;?\s*(\/\/.*)?$/.test(line)) throw new Error(`an import on one line, please: ${line}`)
    hoisted.push(line.replace(/\s*(\/\/.*)?$/, ';'))
    return ''
  })
  for (const m of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*'([^']+)'/g))
    for (const n of m[1].split(',')) own.add(`${m[2]} ${n.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()}`)
  const imports = Object.entries(uses)
    .map(([from, names]) => [from, names.filter((n) => !own.has(`${from} ${n}`))])
    .filter(([, names]) => names.length)
    .map(([from, names]) => `import { ${names.join(', ')} } from '${from}';`)
  return `${[...imports, ...hoisted].join(' ')} export {}\n${preamble}\n;{\n${body}\n}\n`
}

/**
 * Typechecks the ```ts blocks of a `{ name, markdown, uses, preamble, modules? }` (`modules`: ambient module
 * declarations); returns one line per error, `name:LINE: error TSxxxx: message` (LINE in the markdown, or
 * `name:preamble:LINE` for an error in the preamble).
 */
export function check(doc) {
  const dir = mkdtempSync(join(tmpdir(), 'readme-check-'))
  try {
    const preamble = doc.preamble.trim()
    // Line 1 is the imports, then the preamble, then `{`.
    const head = preamble.split('\n').length + 2
    const files = new Map()
    blocks(doc.markdown).forEach((block, k) => {
      const file = `block${k}.ts`
      writeFileSync(join(dir, file), moduleOf(block.code, doc.uses, preamble))
      files.set(file, block.line)
    })
    writeFileSync(join(dir, 'modules.ts'), (doc.modules ?? '') + '\n')
    const base = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')).compilerOptions
    const compilerOptions = {
      ...base,
      // Examples name values they do not use again, and run in a page: no Node types.
      noUnusedLocals: false,
      types: [],
      paths: {
        '@eddy/signal': [join(root, 'packages/signal/src/index.ts')],
        '@eddy/scheduler': [join(root, 'packages/scheduler/src/index.ts')],
        // "Using eddy with other reactive libraries": the devDependencies' own types.
        '@vue/reactivity': [join(root, 'node_modules/@vue/reactivity')],
        '@preact/signals-core': [join(root, 'node_modules/@preact/signals-core')],
      },
    }
    const config = { compilerOptions, files: ['modules.ts', ...files.keys()] }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config))
    let out = ''
    try {
      execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], { encoding: 'utf8' })
    } catch (error) {
      out = String(error.stdout ?? '') + String(error.stderr ?? '')
      if (!out.trim()) throw error
    }
    const lines = out
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => {
        const m = /^(?:.*[\\/])?([^\\/(]+)\((\d+),\d+\): (.*)$/.exec(l)
        if (!m || !files.has(m[1])) return l
        const line = Number(m[2])
        if (line == 1) return `${doc.name}: the imports of the block at line ${files.get(m[1])}: ${m[3]}`
        if (line < head) return `${doc.name}:preamble:${line - 1}: ${m[3]}`
        return `${doc.name}:${files.get(m[1]) + line - head - 1}: ${m[3]}`
      })
    // A preamble error shows once, not once per block.
    return [...new Set(lines)]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Checks the READMEs named (keys of `readmes`), as they are on disk. */
export function checkReadmes(names = Object.keys(readmes)) {
  return names.flatMap((name) => check({ name, markdown: readFileSync(join(root, name), 'utf8'), ...readmes[name] }))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const errors = [...checkReadmes(), ...undocumented('signal'), ...undocumented('scheduler')]
  for (const e of errors) console.log(e)
  console.log(errors.length ? `${errors.length} problems` : 'README examples and API docs: no problems')
  process.exit(errors.length ? 1 : 0)
}

/**
 * What the public API of packages/<pkg> lacks in documentation, one line each: an export of src/index.ts, or a
 * member of an exported class or interface, without a doc comment in the declarations that `pnpm run build` ships
 * (emitted here into a temporary directory, from the source); a function or constant without a section of the
 * package README (a heading naming it) with a ```ts example; a type the README does not name.
 */
export function undocumented(pkg) {
  const dir = mkdtempSync(join(tmpdir(), 'docs-check-'))
  const problems = []
  try {
    const at = join(root, 'packages', pkg)
    execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', join(at, 'tsconfig.build.json'), '--outDir', dir], { encoding: 'utf8' })
    const index = readFileSync(join(dir, 'index.d.ts'), 'utf8')
    const readme = readFileSync(join(at, 'README.md'), 'utf8')
    // The README's sections: a heading, and what follows it up to the next heading.
    const sections = readme.split(/^(?=#{1,6} )/m)
    for (const m of index.matchAll(/export (type )?\{([^}]*)\} from '\.\/([\w-]+)\.(?:ts|js)'/g)) {
      const dts = readFileSync(join(dir, `${m[3]}.d.ts`), 'utf8')
      for (const item of m[2].split(',').map((n) => n.trim())) {
        const type = Boolean(m[1]) || item.startsWith('type ')
        const name = item.replace(/^type\s+/, '')
        const decl = new RegExp(`^(?:export )?(?:declare )?(const|function|class|interface|type) ${name}\\b.*$`, 'gm')
        const found = [...dts.matchAll(decl)]
        if (!found.length) problems.push(`${pkg}: ${name}: no declaration found in ${m[3]}.d.ts`)
        // A type-only export is documented where it is declared first (a class's constructor function is not shipped).
        for (const d of type ? found.slice(0, 1) : found) {
          if (!/\*\/\s*$/.test(dts.slice(0, d.index))) problems.push(`${pkg}: ${name}: no doc comment (${m[3]}.d.ts: ${d[0]})`)
          if (d[1] != 'class' && d[1] != 'interface') continue
          // Members: each line at depth 1 of the body that starts a member needs a doc comment on the line before.
          const lines = dts.slice(d.index + d[0].length).split('\n')
          let depth = 1
          for (let k = 0; k < lines.length && depth > 0; k++) {
            const line = lines[k].trim()
            if (depth == 1 && /^(readonly |get |set )?(\[[\w.]+\]|[\w$]+)\??[(<:]/.test(line) && !/\*\/$/.test(lines[k - 1]?.trim() ?? '/** */'))
              problems.push(`${pkg}: ${name}: member without a doc comment: ${line}`)
            depth += (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length
          }
        }
        if (type) {
          if (!new RegExp(`\`${name}\\b`).test(readme)) problems.push(`${pkg}: type ${name}: not named in the README`)
        } else if (!sections.some((s) => new RegExp(`^#+ .*\`(new )?${name}\\b`).test(s) && /^\s*```ts$/m.test(s)))
          problems.push(`${pkg}: ${name}: no README section (a heading naming it) with a \`\`\`ts example`)
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return problems
}
