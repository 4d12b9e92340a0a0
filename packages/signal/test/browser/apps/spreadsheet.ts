// A 30 x 30 spreadsheet, as a user would build it (from a helper's trial of the packages, trimmed): each cell's text
// is a Signal bound two-way to an <input>; a computed per cell parses it (a number, text, or a formula such as
// "=A1+B2*2" or "=SUM(A1:A10)" that reads other cells' computeds); the display, an error class, aria-invalid and a
// title are bound one-way. A formula that reaches itself shows "#CYCLE!" through the library's "Cycle detected".
import { Signal, batch, computed, effect, type Binding, type Computed } from '@eddy/signal'
import { macrotask } from '@eddy/scheduler'

export const SIDE = 30

/** A cell's name from its 0-based column and row: 0, 0 is "A1"; 29, 29 is "AD30". */
export const cellName = (col: number, row: number): string =>
  (col >= 26 ? String.fromCharCode(64 + Math.floor(col / 26)) : '') + String.fromCharCode(65 + (col % 26)) + (row + 1)

const parseName = (name: string): { col: number; row: number } | undefined => {
  const m = /^([A-Z]{1,2})([0-9]+)$/.exec(name)
  if (!m) return undefined
  const col = [...m[1]!].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1
  return { col, row: Number(m[2]) - 1 }
}

/** An error the formula itself makes ('#DIV/0', '#REF', ...), shown as its first word. */
class FormulaError extends Error {}

/** Evaluates a formula (without its '='): numbers, cells, + - * / ( ), and SUM(range). */
function evaluate(src: string, cell: (name: string) => number): number {
  const t = src.toUpperCase().match(/[0-9.]+|[A-Z]+[0-9]+:[A-Z]+[0-9]+|[A-Z]+[0-9]*|[-+*/()]/g) ?? []
  let i = 0
  const expr = (): number => {
    let v = term()
    while (t[i] == '+' || t[i] == '-') v = t[i++] == '+' ? v + term() : v - term()
    return v
  }
  const term = (): number => {
    let v = factor()
    while (t[i] == '*' || t[i] == '/') {
      const op = t[i++]
      const d = factor()
      if (op == '/' && d == 0) throw new FormulaError('#DIV/0: division by zero')
      v = op == '*' ? v * d : v / d
    }
    return v
  }
  const factor = (): number => {
    const tok = t[i++]
    if (tok == '-') return -factor()
    if (tok == '(') {
      const v = expr()
      if (t[i++] != ')') throw new FormulaError('#PARSE: expected )')
      return v
    }
    if (tok == 'SUM' && t[i] == '(' && t[i + 2] == ')') {
      const [from, to] = t[i + 1]!.split(':').map(parseName)
      i += 3
      if (!from || !to) throw new FormulaError('#PARSE: expected a range')
      let sum = 0
      for (let r = from.row; r <= to.row; r++) for (let c = from.col; c <= to.col; c++) sum += cell(cellName(c, r))
      return sum
    }
    if (tok && /^[0-9.]+$/.test(tok)) return Number(tok)
    if (tok && parseName(tok)) return cell(tok)
    throw new FormulaError(`#PARSE: unexpected ${tok ?? 'end'}`)
  }
  const v = expr()
  if (i != t.length) throw new FormulaError(`#PARSE: unexpected ${t[i]}`)
  return v
}

export interface Cell {
  name: string
  text: Signal<string>
  value: Computed<number | string | null>
  /** The message of the error `value` throws, or ''. */
  error: Computed<string>
  display: Computed<string>
}

/** The sheet's model: cells, a status line, a batched paste. */
export function createSheet() {
  const byName = new Map<string, Cell>()
  const numberAt = (name: string): number => {
    const c = byName.get(name)
    if (!c) throw new FormulaError(`#REF: no cell ${name}`)
    const v = c.value.value // tracked; rethrows that cell's error, "Cycle detected" included
    if (typeof v == 'string') throw new FormulaError(`#VALUE: ${name} is not a number`)
    return v ?? 0
  }
  for (let row = 0; row < SIDE; row++)
    for (let col = 0; col < SIDE; col++) {
      const name = cellName(col, row)
      const text = new Signal('')
      const value = computed(() => {
        const s = text.value.trim()
        if (s.startsWith('=')) return evaluate(s.slice(1), numberAt)
        return s == '' ? null : Number.isFinite(Number(s)) ? Number(s) : s
      })
      const error = computed(() => {
        try {
          value.value
          return ''
        } catch (e) {
          return (e as Error).message
        }
      })
      const display = computed(() => {
        const message = error.value
        if (message) return message == 'Cycle detected' ? '#CYCLE!' : (/^#[A-Z/0]+/.exec(message)?.[0] ?? '#ERR!')
        const v = value.value
        return v == null ? '' : String(v)
      })
      byName.set(name, { name, text, value, error, display })
    }
  const cells = [...byName.values()]
  const status = computed(() => {
    let filled = 0
    let errors = 0
    for (const c of cells) {
      if (c.text.value) filled++
      if (c.error.value) errors++
    }
    return `${filled} filled, ${errors} errors`
  })
  /** Writes rows of texts with their top-left cell at `at`, in one batch. */
  const paste = (at: string, block: string[][]) => {
    const o = parseName(at)!
    batch(() => block.forEach((line, r) => line.forEach((s, c) => (byName.get(cellName(o.col + c, o.row + r))!.text.value = s))))
  }
  return { cells, cell: (name: string) => byName.get(name)!, status, paste }
}

export type Sheet = ReturnType<typeof createSheet>

/** Renders the sheet into `root`, and saves its non-empty cells to `save` at most once a macrotask. */
export function mountSheet(root: HTMLElement, sheet: Sheet, save: (data: Record<string, string>) => void) {
  const bindings: Binding[] = []
  const table = root.appendChild(document.createElement('table'))
  const ui = new Map<string, { input: HTMLInputElement; td: HTMLTableCellElement; out: HTMLSpanElement }>()
  for (let row = 0; row < SIDE; row++) {
    const tr = table.insertRow()
    for (let col = 0; col < SIDE; col++) {
      const c = sheet.cell(cellName(col, row))
      const td = tr.insertCell()
      const input = td.appendChild(document.createElement('input'))
      input.setAttribute('aria-label', c.name)
      const out = td.appendChild(document.createElement('span'))
      bindings.push(
        c.text.bind(input, { model: 'input' }),
        c.display.bind(out),
        c.error.bind(td, { class: 'error' }),
        c.error.bind(td, { attr: 'aria-invalid', format: (m) => m != '' }),
        c.error.bind(td, { attr: 'title', format: (m) => m || null }),
      )
      ui.set(c.name, { input, td, out })
    }
  }
  const status = root.appendChild(document.createElement('p'))
  bindings.push(sheet.status.bind(status))
  let cancel: (() => void) | undefined
  const stop = effect(() => {
    const data: Record<string, string> = {}
    for (const c of sheet.cells) if (c.text.value) data[c.name] = c.text.value
    cancel?.()
    cancel = macrotask(() => save(data))
  })
  return {
    ui,
    status,
    /** What each named cell shows. */
    shown: (...names: string[]) => names.map((n) => ui.get(n)!.out.textContent),
    dispose() {
      stop()
      cancel?.()
      for (const b of bindings) b.dispose()
      root.replaceChildren()
    },
  }
}
