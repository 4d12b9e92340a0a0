// Compile-only type test (checked by `tsc --noEmit`, never run): pins the public types of @eddy/signal.
import {
  Signal,
  batch,
  computed,
  configure,
  effect,
  flush,
  settled,
  untracked,
  type Binding,
  type Computed,
  type Dispose,
} from '@eddy/signal'

const count = new Signal(0)
const name = Signal('eddy')
const n: number = count.value
const s: string = name.peek()
count.value = 5
// @ts-expect-error a Signal<number> holds numbers
count.value = 'five'
new Signal({ id: 1 }, { equals: (a, b) => a.id === b.id })
// @ts-expect-error equals compares two values of the signal's type
new Signal(1, { equals: (a: string, b: string) => a === b })

const doubled: Computed<number> = computed(() => count.value * 2)
const d: number = doubled.value + doubled.peek()
// @ts-expect-error a computed is read-only
doubled.value = 3
// A computed converts to its value as a signal does (typed: valueOf and toJSON give T, toString a string).
const converted: [number, number, string] = [doubled.valueOf(), doubled.toJSON(), doubled.toString()]
void converted
// @ts-expect-error computed takes a function
computed(5)

const off: Dispose = count.subscribe((v) => v.toFixed())
off()
off[Symbol.dispose]()
// @ts-expect-error the subscriber gets the signal's type
name.subscribe((v: number) => v)

const el = document.createElement('div')
const input = document.createElement('input')
const b: Binding = count.bind(el)
b.dispose()
b[Symbol.dispose]()
count.bind(el, 'title')
count.bind(el, { attr: 'aria-valuenow' })
count.bind(el, { class: 'active' })
count.bind(el, { style: 'width', format: (v) => `${v.toFixed(1)}px` })
name.bind(el, { html: true, sanitize: (html) => html })
// A TrustedHTML as @types/trusted-types declares it: a class with a private brand and no members.
declare class TrustedHTML { private brand: true }
declare const createHTML: (html: string) => TrustedHTML
name.bind(el, { html: true, sanitize: (html) => createHTML(html) })
// @ts-expect-error an async sanitizer: a Promise would be written as "[object Promise]"
name.bind(el, { html: true, sanitize: async (html) => html })
// @ts-expect-error a node (DOMPurify's RETURN_DOM) would be written as "[object HTMLBodyElement]"
name.bind(el, { html: true, sanitize: () => document.body })
// @ts-expect-error the policy's function, not what it returns
name.bind(el, { html: true, sanitize: () => createHTML })
name.bind(input, { model: 'input' })
doubled.bind(el, { attr: 'data-doubled' })
// @ts-expect-error html needs a sanitizer
name.bind(el, { html: true })
// @ts-expect-error model takes 'input' or 'change'
name.bind(input, { model: 'keyup' })
// @ts-expect-error a computed cannot be bound two-way
doubled.bind(input, { model: 'input' })
// Two-way only for the types a field writes back: a number, text, a checkbox's boolean, a <select multiple>'s values.
new Signal<'s' | 'm' | 'l'>('m').bind(input, { model: 'change' })
new Signal(false).bind(input, { model: 'change' })
new Signal<string[]>([]).bind(input, { model: 'change' })
new Signal<string | number>(0).bind(input, { model: 'input' })
export const generic = <T extends string>(field: Signal<T>) => field.bind(input, { model: 'input' })
// @ts-expect-error unknown may be anything: the field's text would be written back
new Signal<unknown>('').bind(input, { model: 'input' })
// @ts-expect-error null is no number: the field's text would be written back
new Signal<number | null>(null).bind(input, { model: 'input' })
// An optional text field: text is written back, and null or undefined shows as an empty field.
new Signal<string | null>(null).bind(input, { model: 'input' })
new Signal<string | undefined>(undefined).bind(input, { model: 'change' })
export const optional = (field: Signal<string | null>) => field.bind(input, { model: 'input' })
// @ts-expect-error nothing but null: the field's text would be written back
new Signal(null).bind(input, { model: 'input' })
// @ts-expect-error a Date would get the field's text
new Signal(new Date()).bind(input, { model: 'input' })
// @ts-expect-error format gets the signal's type
count.bind(el, { format: (v: string) => v })
// A target object of one kind, as bind() checks at run time (a union of the kinds alone let these through).
// @ts-expect-error model takes no format: the formatted text would be written back
name.bind(input, { model: 'input', format: (v: string) => v })
// @ts-expect-error a class and html are two kinds
name.bind(el, { class: 'a', html: true, sanitize: (html: string) => html })
// @ts-expect-error an attribute and a style are two kinds
name.bind(el, { attr: 'a', style: 'width' })
// @ts-expect-error a sanitizer without html
name.bind(el, { attr: 'a', sanitize: (html: string) => html })

const stop: Dispose = effect(() => {
  count.value
  return () => {}
})
stop()
// What an assignment gives is ignored.
effect(() => (document.title = name.value))
effect(() => 5)
// @ts-expect-error an effect is synchronous: what it reads after an await is not tracked
effect(async () => {})
// @ts-expect-error an object is no cleanup
effect(() => ({ dispose() {} }))

const r: string = batch(() => 'done')
const u: number = untracked(() => count.value)
flush()
const p: Promise<void> = settled()
configure({ schedule: 'microtask' })
configure({ schedule: 'animationFrame' })
configure({ schedule: (f) => setTimeout(f, 0) })
// @ts-expect-error unknown schedule
configure({ schedule: 'idle' })

export { n, s, d, r, u, p }

// A Signal<T> is a Signal<unknown> (and of a wider T), and a Computed<T>, the read-only view: here, against the
// sources (as code in this workspace is checked), as in the shipped types (test/dist.test.ts).
export const widened: [Signal<unknown>, Signal<string>, Computed<number>] = [count, new Signal<'a' | 'b'>('a'), count]
// @ts-expect-error `this` in an effect is undefined, not an object with dispose() (as in Preact): use what effect() returns
effect(function (this: { dispose(): void }) {
  this.dispose()
})
// @ts-expect-error nor in a computed's function
computed(function (this: { value: number }) {
  return this.value
})
