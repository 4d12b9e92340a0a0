// What the modern-HTML trial (settings-screen.test.ts, stop 36) found, each as a small case. The first three pin what
// the README says under "Elements the browser changes by itself" and "View transitions"; the last, { model } on a
// form-associated custom element, failed before stop 36 ("bind: model needs a form field").
import { afterEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { Signal, configure, effect, flush, settled } from '@eddy/signal'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
  flush()
  configure({ schedule: 'microtask' })
  document.body.replaceChildren()
  document.head.querySelectorAll('style[data-trial]').forEach((s) => s.remove())
})
const html = (markup: string): HTMLElement => {
  const root = document.body.appendChild(document.createElement('div'))
  root.innerHTML = markup
  return root.firstElementChild as HTMLElement
}
const next = (el: EventTarget, type: string) => new Promise<Event>((r) => el.addEventListener(type, r, { once: true }))

describe('a one-way binding does not put back what the browser changed, while its signal keeps its value', () => {
  // The README says a binding "writes nothing when the DOM already shows it" and that writing an equal value is a
  // no-op. What follows for elements the browser changes by itself (<details>, <dialog>, popover,
  // hidden="until-found", form.reset()): the binding renders only when its signal changes, so "set it to what it
  // already holds" does nothing, while a change and back in one task (coalesced) does put it back. The README says
  // so ("Elements the browser changes by itself"), and names the event to write back (toggle, close, beforematch,
  // a form-associated element's own).
  it('<details>: closed by the user, `open.value = true` again leaves it closed', async () => {
    const details = html('<details><summary>s</summary>x</details>') as HTMLDetailsElement
    const open = new Signal(true)
    open.bind(details, { attr: 'open' })
    await settled()
    expect(details.open).toBe(true)
    await userEvent.click(details.querySelector('summary')!)
    expect(details.open).toBe(false)
    open.value = true // "open it again": equal, a no-op
    await settled()
    expect(details.open).toBe(false)
    // a change and back, in one task, renders once and compares with the DOM: it opens
    open.value = false
    open.value = true
    await settled()
    expect(details.open).toBe(true)
  })

  it('hidden="until-found": revealed by the browser, the same value written again does not collapse it', async () => {
    const region = html('<div><p id="f1-target">x</p></div>')
    const hidden = new Signal<string | false>('until-found')
    hidden.bind(region, { attr: 'hidden' })
    await settled()
    region.removeAttribute('hidden') // as find-in-page does (settings-screen.test.ts reveals it by a #fragment)
    hidden.value = 'until-found'
    await settled()
    expect(region.hasAttribute('hidden')).toBe(false)
  })

  it('an exclusive accordion bound per section: two `true`s in one flush, the one written last wins', async () => {
    const root = html('<div><details name="g"><summary>a</summary></details><details name="g"><summary>b</summary></details></div>')
    const [a, b] = root.querySelectorAll('details')
    const openA = new Signal(false), openB = new Signal(false)
    openA.bind(a, { attr: 'open' })
    openB.bind(b, { attr: 'open' })
    flush()
    openB.value = true
    openA.value = true // renders in the order written: b opens, then a, which closes b
    await settled()
    expect([a.open, b.open]).toEqual([true, false])
    expect(openB.value).toBe(true) // says open, until a toggle listener writes it back
  })
})

describe('a popover written back from `beforetoggle` throws from the effect that shows it', () => {
  // `beforetoggle` is the event fired *before* the change, synchronously. Written into the signal, its write runs
  // the effect at once (effects run inside the write), and the effect calls showPopover() in the middle of the
  // browser's own show: InvalidStateError "Invalid to show a popover during another show operation". A guard on
  // `:popover-open` does not help (it is not open yet at beforetoggle). React's useEffect, run after the event,
  // would not hit it. The README says to write back from `toggle` (as settings-screen.test.ts does).
  it('the popovertarget button opens it: the effect throws InvalidStateError', async () => {
    const root = html('<div><button popovertarget="f2">tips</button><div id="f2" popover>tip</div></div>')
    const pop = root.querySelector<HTMLElement>('#f2')!
    const open = new Signal(false)
    const errors: unknown[] = []
    cleanups.push(effect(() => {
      try {
        open.value ? pop.showPopover() : pop.hidePopover()
      } catch (e) {
        errors.push(e)
      }
    }))
    pop.addEventListener('beforetoggle', (e) => (open.value = (e as ToggleEvent).newState == 'open'))
    const shown = next(pop, 'toggle')
    await userEvent.click(root.querySelector('button')!)
    await shown
    expect(pop.matches(':popover-open')).toBe(true)
    expect(open.value).toBe(true)
    expect(errors.map((e) => (e as DOMException).name)).toEqual(['InvalidStateError'])
  })
})

describe("document.startViewTransition with the 'animationFrame' schedule", () => {
  // The callback runs while the page's rendering is held for the transition. Under 'animationFrame' the render
  // waits for a frame: (a) a plain write is not in the "new" snapshot (the transition animates to the old state,
  // then the DOM jumps); (b) returning settled() waits for a frame that does not come while the callback's promise
  // is pending: Chromium aborts the transition after its DOM-update timeout (~4 s, TimeoutError). With the default
  // 'microtask' schedule both work; `flush()` in the callback works under every schedule. The README says
  // so ("View transitions").
  const setup = () => {
    const style = document.head.appendChild(document.createElement('style'))
    style.dataset.trial = ''
    style.textContent = '.compact { view-transition-name: box } ::view-transition-group(*) { animation-duration: 2s }'
    const el = html('<p>density</p>')
    const compact = new Signal(false)
    compact.bind(el, { class: 'compact' })
    flush()
    return { el, compact }
  }

  it('(a) a plain write: the new snapshot does not show it', async () => {
    configure({ schedule: 'animationFrame' })
    const { el, compact } = setup()
    let atDone = 'unset'
    const t = document.startViewTransition(() => void (compact.value = true))
    t.updateCallbackDone.then(() => (atDone = el.className))
    await t.ready
    const pseudo = document.getAnimations().map((a) => (a.effect as KeyframeEffect).pseudoElement)
    t.skipTransition()
    await t.finished.catch(() => {})
    expect(atDone).toBe('') // not rendered when the DOM update was declared done
    expect(pseudo).not.toContain('::view-transition-new(box)')
    expect(pseudo).toContain('::view-transition-new(root)') // the transition itself ran
  })

  it('(b) returning settled(): the DOM update times out and the transition is aborted', async () => {
    configure({ schedule: 'animationFrame' })
    const { compact } = setup()
    const t = document.startViewTransition(() => {
      compact.value = true
      return settled()
    })
    const ready = await t.ready.then(() => 'ready', (e: DOMException) => e.name)
    expect(ready).toBe('TimeoutError')
  }, 15_000)
})

describe('{ model } on a form-associated custom element', () => {
  // A form-associated custom element (static formAssociated = true) is a form field: it has a value, its form
  // submits it, and it fires input/change like a native field. Before stop 36 `.bind(el, { model: 'change' })` threw
  // "bind: model needs a form field, got F4-STEPPER", so two-way needed a hand-written listener (Vue's v-model works
  // on custom elements with a value property and an input event). Now model accepts an element whose class is
  // form-associated, and reads and writes its `value` as for a text field.
  class Stepper extends HTMLElement {
    static formAssociated = true
    #internals = this.attachInternals()
    #value = '0'
    get value() { return this.#value }
    set value(v: string) {
      this.#value = v
      this.#internals.setFormValue(v)
      this.textContent = v
    }
    step() {
      this.value = String(+this.#value + 1)
      this.dispatchEvent(new Event('change', { bubbles: true }))
    }
    formResetCallback() {
      this.value = '0'
      this.dispatchEvent(new Event('change', { bubbles: true }))
    }
  }
  if (!customElements.get('f4-stepper')) customElements.define('f4-stepper', Stepper)

  it('a Signal<number> two-way on it: renders, follows its change events and its form reset', async () => {
    const form = html('<form><f4-stepper name="n"></f4-stepper></form>') as HTMLFormElement
    const el = form.firstElementChild as Stepper
    const n = new Signal(5)
    n.bind(el, { model: 'change' }) // threw before stop 36
    await settled()
    expect(el.value).toBe('5')
    expect(new FormData(form).get('n')).toBe('5')
    el.step()
    expect(n.value).toBe(6) // a number, as for a native field
    form.reset()
    expect(n.value).toBe(0)
    n.value = 3
    await settled()
    expect(new FormData(form).get('n')).toBe('3')
  })

  it('a plain custom element (not form-associated) is still refused', () => {
    const el = html('<x-not-a-field></x-not-a-field>')
    expect(() => new Signal('').bind(el, { model: 'input' } as never)).toThrow(/model needs a form field/)
  })
})
