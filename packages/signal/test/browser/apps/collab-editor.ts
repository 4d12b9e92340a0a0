// A collaborative record editor built the way the READMEs teach: one Signal per field (local value) plus the
// server's version of it, computed dirty flags and a diff, a debounced save effect, an undo stack of snapshots
// restored in a batch, presence indicators, conflict markers ({ class }), "locked by another user" through a
// `disabled` property binding, and remote edits pushed through a createQueue() channel.
import { Signal, batch, computed, effect, untracked, type Binding, type Computed } from '@eddy/signal'
import { createQueue } from '@eddy/scheduler'

export type Value = string | number | boolean
export interface Rec { id: string; title: string; author: string; body: string; qty: number; status: string; done: boolean }
export const KEYS = ['title', 'author', 'body', 'qty', 'status', 'done'] as const
export type Key = (typeof KEYS)[number]
export const MODEL: Record<Key, 'input' | 'change'> = { title: 'input', author: 'change', body: 'input', qty: 'input', status: 'change', done: 'change' }

export interface Field<T extends Value = Value> {
  key: Key
  local: Signal<T>
  server: Signal<T>
  lockedBy: Signal<string | null>
  conflict: Signal<boolean>
  dirty: Computed<boolean>
}

export const ME = 'me'

export function formHtml(): string {
  return `
  <form class="editor" novalidate>
    ${KEYS.map((k) => `<div class="row" data-key="${k}"><span class="presence" data-key="${k}"></span>${
      k === 'body' ? `<textarea name="body"></textarea>`
      : k === 'qty' ? `<input name="qty" type="number">`
      : k === 'status' ? `<select name="status"><option value="draft">Draft</option><option value="review">Review</option><option value="final">Final</option></select>`
      : k === 'done' ? `<input name="done" type="checkbox">`
      : `<input name="${k}" autocomplete="off">`
    }<span class="dirty" data-key="${k}"></span></div>`).join('')}
    <output class="diff"></output><output class="saved"></output><output class="status-line"></output>
  </form>`
}

export interface EditorOptions {
  saveDelayMs?: number
  /** called by the save effect's timer with what it saves */
  onSave?: (payload: Partial<Rec>, diffSeenByEffect: string) => void
  /** a format for the presence text (lets a test make one throw) */
  presenceFormat?: (key: Key) => (names: string[]) => string
  /** what a remote edit does to a field the user changed locally: 'overwrite' (last writer wins) or 'mark' */
  onConflict?: 'overwrite' | 'mark'
}

export function openEditor(root: HTMLElement, rec: Rec, opts: EditorOptions = {}) {
  const form = root.querySelector('form')!
  const el = (k: Key) => form.querySelector<HTMLInputElement>(`[name=${k}]`)!
  const fields = {} as Record<Key, Field>
  for (const k of KEYS) {
    const local = new Signal<Value>(rec[k])
    const server = new Signal<Value>(rec[k])
    fields[k] = { key: k, local, server, lockedBy: new Signal<string | null>(null), conflict: new Signal(false), dirty: computed(() => !Object.is(local.value, server.value)) }
  }
  const presence = new Signal<Record<string, Key | null>>({})
  const diff = computed(() => {
    const d: Partial<Record<Key, [Value, Value]>> = {}
    for (const k of KEYS) if (fields[k].dirty.value) d[k] = [fields[k].server.value, fields[k].local.value]
    return d
  })
  const diffText = computed(() => JSON.stringify(diff.value))
  const saves: Partial<Rec>[] = []
  const saveCount = new Signal(0)
  const bindings: Binding[] = []
  const stops: (() => void)[] = []
  let disposed = false

  for (const k of KEYS) {
    const f = fields[k]
    const input = el(k)
    bindings.push((f.local as Signal<any>).bind(input, { model: MODEL[k] }))
    bindings.push(computed(() => f.lockedBy.value !== null && f.lockedBy.value !== ME).bind(input, 'disabled'))
    bindings.push(f.conflict.bind(input, { class: 'conflict' }))
    bindings.push(f.dirty.bind(form.querySelector(`.dirty[data-key=${k}]`)!, { format: (d) => (d ? '•' : '') }))
    const editors = computed(() => Object.entries(presence.value).filter(([u, key]) => key === k && u !== ME).map(([u]) => u).sort())
    const fmt = opts.presenceFormat?.(k) ?? ((names: string[]) => names.join(', '))
    bindings.push(editors.bind(form.querySelector(`.presence[data-key=${k}]`)!, { format: fmt }))
    bindings.push(editors.bind(form.querySelector(`.row[data-key=${k}]`)!, { class: 'has-presence', format: (n) => n.length > 0 }))
  }
  bindings.push(diffText.bind(form.querySelector('.diff')!))
  bindings.push(saveCount.bind(form.querySelector('.saved')!, { format: (n) => `saved ${n}` }))

  // The debounced save: reads the diff (tracked), waits, then saves what the fields hold then.
  stops.push(
    effect(() => {
      const d = diffText.value
      if (d === '{}') return
      const id = setTimeout(() => {
        if (disposed) throw new Error('save after dispose')
        const payload: Partial<Rec> = {}
        for (const k of KEYS) if (fields[k].dirty.peek()) (payload as any)[k] = fields[k].local.peek()
        saves.push(payload)
        opts.onSave?.(payload, d)
        batch(() => {
          for (const k of Object.keys(payload) as Key[]) {
            fields[k].server.value = (payload as any)[k]
            fields[k].conflict.value = false
          }
          saveCount.value++
        })
      }, opts.saveDelayMs ?? 30)
      return () => clearTimeout(id)
    }),
  )

  // Undo stack: snapshots of the local values.
  const undoStack: Record<Key, Value>[] = []
  const redoStack: Record<Key, Value>[] = []
  const snapshot = () => untracked(() => Object.fromEntries(KEYS.map((k) => [k, fields[k].local.value])) as Record<Key, Value>)
  const restore = (s: Record<Key, Value>) => batch(() => { for (const k of KEYS) fields[k].local.value = s[k] })
  const checkpoint = () => { undoStack.push(snapshot()); redoStack.length = 0 }
  const undo = () => { const s = undoStack.pop(); if (!s) return false; redoStack.push(snapshot()); restore(s); return true }
  const redo = () => { const s = redoStack.pop(); if (!s) return false; undoStack.push(snapshot()); restore(s); return true }

  // Remote channel: edits from the server come through a queue of their own.
  const channel = createQueue()
  const cancels = new Set<() => void>()
  type Remote = { user: string; edits: Partial<Record<Key, Value>>; lock?: Key | null; at?: Key | null }
  const applyRemote = (r: Remote) => {
    if (disposed) return
    batch(() => {
      for (const [k, v] of Object.entries(r.edits) as [Key, Value][]) {
        const f = fields[k]
        const wasDirty = f.dirty.peek()
        f.server.value = v
        if (wasDirty && !Object.is(f.local.peek(), v)) {
          f.conflict.value = true
          if ((opts.onConflict ?? 'overwrite') === 'overwrite') f.local.value = v
        } else f.local.value = v
      }
      if (r.lock !== undefined) for (const k of KEYS) {
        if (r.lock === k) fields[k].lockedBy.value = r.user
        else if (fields[k].lockedBy.peek() === r.user) fields[k].lockedBy.value = null
      }
      if (r.at !== undefined) presence.value = { ...presence.peek(), [r.user]: r.at }
    })
  }
  const push = (r: Remote) => {
    const c = channel.macrotask(() => { cancels.delete(c); applyRemote(r) })
    cancels.add(c)
  }

  const dispose = () => {
    disposed = true
    for (const c of cancels) c()
    cancels.clear()
    for (const b of bindings) b.dispose()
    for (const s of stops) s()
  }
  return { form, el, fields, presence, diff, diffText, saves, saveCount, undo, redo, checkpoint, snapshot, restore, push, applyRemote, dispose, undoStack, redoStack, pending: () => cancels.size }
}
export type Editor = ReturnType<typeof openEditor>

export const record = (id: string, over: Partial<Rec> = {}): Rec => ({ id, title: `Title ${id}`, author: `Author ${id}`, body: `Body of ${id}`, qty: 1, status: 'draft', done: false, ...over })
