// The modern-HTML trial: a settings screen built from the browser's own UI primitives (<details>, exclusive
// accordions, <dialog>, popover, hidden="until-found", inert, view transitions, a form-associated custom element),
// with its state in @eddy/signal signals bound to the DOM. These primitives change the DOM by themselves (a click
// on a summary, Esc, light dismiss, find-in-page): each test uses the pattern that keeps the signal in step (the
// event the browser fires) and checks, after each user action, that signal and DOM agree. Driven with real input
// (userEvent through Playwright/CDP) in headless Chromium.
import { afterEach, describe, expect, it } from 'vitest'
import { userEvent } from 'vitest/browser'
import { Signal, computed, configure, effect, flush, settled } from '@eddy/signal'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
  flush()
  configure({ schedule: 'microtask' })
  document.body.replaceChildren()
  document.head.querySelectorAll('style[data-trial]').forEach((s) => s.remove())
  if (location.hash) history.replaceState(null, '', location.pathname + location.search)
})

const html = (markup: string): HTMLElement => {
  const root = document.body.appendChild(document.createElement('div'))
  root.innerHTML = markup
  return root
}
const $ = <E extends Element = HTMLElement>(root: ParentNode, sel: string) => root.querySelector(sel) as E
/** The next event of `type` on `el` (toggle and close are fired in a task of their own, after the change). */
const next = (el: EventTarget, type: string) => new Promise<Event>((r) => el.addEventListener(type, r, { once: true }))
const stop = (f: () => void) => void cleanups.push(f)

describe('<details> sections: open state in a signal, the summary clicked by the user', () => {
  // The pattern: bind `open` one-way, and write the browser's changes back from `toggle`.
  const section = (open: Signal<boolean>) => {
    const root = html('<details><summary>Privacy</summary><p>Share usage data</p></details>')
    const details = $<HTMLDetailsElement>(root, 'details')
    open.bind(details, { attr: 'open' })
    details.addEventListener('toggle', () => (open.value = details.open))
    return details
  }

  it('a signal write opens and closes it; a click on the summary writes the signal back', async () => {
    const open = new Signal(false)
    const details = section(open)
    flush()
    expect(details.open).toBe(false)
    open.value = true
    await settled()
    expect(details.open).toBe(true)
    expect(details.hasAttribute('open')).toBe(true)

    const toggled = next(details, 'toggle')
    await userEvent.click($(details, 'summary'))
    expect(details.open).toBe(false) // the browser closed it at the click
    await toggled // in a task of its own (often already fired: userEvent waits for the CDP round trip)
    expect(open.value).toBe(false)

    // and the signal can open it again (its value changed, so its binding renders)
    open.value = true
    await settled()
    expect(details.open).toBe(true)
  })

  it("the same with a property binding ('open'), the README's `'title'` row (any property name)", async () => {
    const open = new Signal(true)
    const details = html('<details><summary>Sound</summary>x</details>').firstElementChild as HTMLDetailsElement
    open.bind(details, 'open')
    details.addEventListener('toggle', () => (open.value = details.open))
    await settled()
    expect(details.open).toBe(true)
    const toggled = next(details, 'toggle')
    await userEvent.click($(details, 'summary'))
    await toggled
    expect(open.value).toBe(false)
    open.value = true
    await settled()
    expect(details.open).toBe(true)
  })

  it('README: "It writes nothing when the DOM already shows it": the write-back from toggle renders no mutation', async () => {
    const open = new Signal(false)
    const details = section(open)
    await settled()
    const records: MutationRecord[] = []
    const mo = new MutationObserver((l) => records.push(...l))
    mo.observe(details, { attributes: true })
    const toggled = next(details, 'toggle')
    await userEvent.click($(details, 'summary'))
    await toggled
    await settled() // the binding rendered open = true into a details that shows it
    records.push(...mo.takeRecords())
    mo.disconnect()
    expect(open.value).toBe(true)
    expect(records.map((r) => r.attributeName)).toEqual(['open']) // the browser's own, none from eddy
  })

  it('aria-expanded on a disclosure button follows the signal as "true"/"false" (README footnote 3)', async () => {
    // Footnote 3: "On the ARIA states that take 'true' and 'false' (aria-expanded, ...), true and false are written so."
    const open = new Signal(false)
    const root = html('<button aria-controls="more">More</button><div id="more">advanced</div>')
    const button = $(root, 'button')
    const more = $(root, '#more')
    open.bind(button, { attr: 'aria-expanded' })
    open.bind(more, { attr: 'hidden', format: (v) => !v })
    button.addEventListener('click', () => (open.value = !open.value))
    await settled()
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(more.hidden).toBe(true)
    await userEvent.click(button)
    await settled()
    expect(button.getAttribute('aria-expanded')).toBe('true')
    expect(more.hidden).toBe(false)
    expect(more.getAttribute('hidden')).toBeNull() // false removes it
  })
})

describe('an exclusive accordion (<details name>): opening one closes the others by itself', () => {
  // One signal, the id of the open section (or null): each section's open state is a computed of it. The browser
  // closes the other sections itself; their toggle events find the signal already pointing elsewhere.
  const mount = (openId: Signal<string | null>) => {
    const root = html(
      ['general', 'privacy', 'sound']
        .map((id) => `<details name="settings" id="${id}"><summary>${id}</summary><p>${id} options</p></details>`)
        .join(''),
    )
    const all = [...root.querySelectorAll('details')]
    for (const d of all) {
      computed(() => openId.value == d.id).bind(d, { attr: 'open' })
      d.addEventListener('toggle', () => {
        if (d.open) openId.value = d.id
        else if (openId.value == d.id) openId.value = null // closed by its own summary: nothing is open
      })
    }
    return all
  }
  const shown = (all: HTMLDetailsElement[]) => all.filter((d) => d.open).map((d) => d.id)

  it('signal -> DOM, clicks -> signal; never two open, the signal names the open one', async () => {
    const openId = new Signal<string | null>('general')
    const all = mount(openId)
    await settled()
    expect(shown(all)).toEqual(['general'])

    openId.value = 'sound'
    await settled()
    expect(shown(all)).toEqual(['sound'])

    // the user opens "privacy": the browser closes "sound"; both toggles fire
    const toggled = Promise.all([next(all[1], 'toggle'), next(all[2], 'toggle')])
    await userEvent.click($(all[1], 'summary'))
    expect(shown(all)).toEqual(['privacy'])
    await toggled
    expect(openId.value).toBe('privacy')

    // the user closes it with its own summary: nothing open
    const closed = next(all[1], 'toggle')
    await userEvent.click($(all[1], 'summary'))
    await closed
    expect(openId.value).toBeNull()
    expect(shown(all)).toEqual([])

    // and the signal opens one again
    openId.value = 'general'
    await settled()
    expect(shown(all)).toEqual(['general'])
  })
})

describe('<dialog> opened with showModal() from an effect', () => {
  // `open` as an attribute would open it non-modally (no backdrop, no inert page, no Esc): an effect calls
  // showModal()/close(), and the dialog's `close` event writes the signal back (Esc, method="dialog", closedby).
  const mount = (closedby?: string) => {
    const root = html(
      `<button id="edit">Edit name</button>
       <dialog ${closedby ? `closedby="${closedby}"` : ''}><form method="dialog">
         <input name="nick"><button value="cancel" formnovalidate>Cancel</button><button value="save">Save</button>
       </form></dialog>`,
    )
    const dialog = $<HTMLDialogElement>(root, 'dialog')
    const editing = new Signal(false)
    const result = new Signal('')
    stop(effect(() => {
      if (editing.value) dialog.open || dialog.showModal()
      else dialog.close()
    }))
    dialog.addEventListener('close', () => {
      result.value = dialog.returnValue
      editing.value = false
    })
    $(root, '#edit').addEventListener('click', () => {
      dialog.returnValue = ''
      editing.value = true
    })
    return { root, dialog, editing, result }
  }

  it('the signal opens it modally; a method="dialog" button closes it, returnValue reaches a signal', async () => {
    const { root, dialog, editing, result } = mount()
    await userEvent.click($(root, '#edit'))
    expect(dialog.open).toBe(true)
    expect(dialog.matches(':modal')).toBe(true)
    const closed = next(dialog, 'close')
    await userEvent.click($(dialog, 'button[value=save]'))
    expect(dialog.open).toBe(false)
    await closed
    expect(editing.value).toBe(false)
    expect(result.value).toBe('save')
    // opened again by the same signal
    editing.value = true
    expect(dialog.open).toBe(true)
  })

  it('Esc closes it (cancel, then close): the close event writes the signal back', async () => {
    const { root, dialog, editing, result } = mount()
    await userEvent.click($(root, '#edit'))
    const closed = next(dialog, 'close')
    await userEvent.keyboard('{Escape}')
    expect(dialog.open).toBe(false)
    await closed
    expect(editing.value).toBe(false)
    expect(result.value).toBe('')
    editing.value = true
    expect(dialog.open).toBe(true)
  })

  it('closedby="any": a click on the backdrop closes it (light dismiss), and the signal follows', async () => {
    const { root, dialog, editing } = mount('any')
    await userEvent.click($(root, '#edit'))
    expect(dialog.open).toBe(true)
    const closed = next(dialog, 'close')
    // a point outside the dialog's box, on its ::backdrop
    await userEvent.click(document.documentElement, { position: { x: 5, y: 5 } })
    await closed
    expect(dialog.open).toBe(false)
    expect(editing.value).toBe(false)
  })

  it('the page behind it is inert while it is open, and a bound { attr: "inert" } region follows the signal', async () => {
    const { root, dialog, editing } = mount()
    const aside = root.appendChild(document.createElement('aside'))
    aside.innerHTML = '<button>help</button>'
    editing.bind(aside, { attr: 'inert' })
    editing.value = true
    await settled()
    expect(aside.inert).toBe(true)
    const help = $(aside, 'button')
    help.focus()
    expect(document.activeElement).not.toBe(help)
    dialog.close()
    await next(dialog, 'close')
    await settled()
    expect(aside.inert).toBe(false)
    help.focus()
    expect(document.activeElement).toBe(help)
  })
})

describe('a popover (popover="auto", light dismiss) whose visibility is a signal', () => {
  // The pattern: an effect shows or hides it, the `toggle` event (fired in a task of its own) writes the signal back.
  // (Not `beforetoggle`: see browser-changes.test.ts.)
  const mount = () => {
    const root = html('<button popovertarget="tips">Tips</button><div id="tips" popover>tip of the day</div>')
    const pop = $(root, '#tips')
    const open = new Signal(false)
    stop(effect(() => (open.value ? pop.showPopover() : pop.hidePopover())))
    pop.addEventListener('toggle', (e) => (open.value = (e as ToggleEvent).newState == 'open'))
    return { root, pop, open }
  }
  const showing = (el: Element) => el.matches(':popover-open')

  it('signal -> popover; light dismiss and the popovertarget button -> signal', async () => {
    const { root, pop, open } = mount()
    open.value = true
    expect(showing(pop)).toBe(true)

    let toggled = next(pop, 'toggle')
    await userEvent.click(document.documentElement, { position: { x: 400, y: 400 } })
    expect(showing(pop)).toBe(false)
    await toggled
    expect(open.value).toBe(false)

    toggled = next(pop, 'toggle')
    await userEvent.click($(root, 'button'))
    await toggled
    expect(showing(pop)).toBe(true)
    expect(open.value).toBe(true)

    toggled = next(pop, 'toggle')
    await userEvent.keyboard('{Escape}')
    await toggled
    expect(open.value).toBe(false)
    open.value = true
    expect(showing(pop)).toBe(true)
  })

  it('two auto popovers: showing one hides the other by itself, and its signal follows', async () => {
    const a = mount()
    const b = mount()
    b.pop.id = 'tips2'
    a.open.value = true
    await next(a.pop, 'toggle')
    const hidden = next(a.pop, 'toggle')
    b.open.value = true
    expect(showing(a.pop)).toBe(false)
    await hidden
    expect(a.open.value).toBe(false)
    expect(b.open.value).toBe(true)
  })
})

describe('hidden="until-found": the browser reveals it by itself (find-in-page, fragment navigation)', () => {
  it('a collapsed region, revealed by a #fragment: beforematch writes the signal, aria-expanded follows', async () => {
    const root = html(
      '<button aria-controls="adv">Advanced</button><div id="adv"><h3 id="proxy-port">Proxy port</h3></div>',
    )
    const button = $(root, 'button')
    const region = $(root, '#adv')
    const expanded = new Signal(false)
    expanded.bind(button, { attr: 'aria-expanded' })
    expanded.bind(region, { attr: 'hidden', format: (v) => (v ? false : 'until-found') })
    region.addEventListener('beforematch', () => (expanded.value = true))
    button.addEventListener('click', () => (expanded.value = !expanded.value))
    await settled()
    expect(region.getAttribute('hidden')).toBe('until-found')
    expect(button.getAttribute('aria-expanded')).toBe('false')

    location.hash = '#proxy-port'
    await new Promise((r) => setTimeout(r, 0))
    await settled()
    expect(region.hasAttribute('hidden')).toBe(false)
    expect(expanded.value).toBe(true)
    expect(button.getAttribute('aria-expanded')).toBe('true')

    await userEvent.click(button) // collapse again: back to until-found
    await settled()
    expect(region.getAttribute('hidden')).toBe('until-found')
    expect(button.getAttribute('aria-expanded')).toBe('false')
  })
})

describe('document.startViewTransition(() => { s.value = ... }): is the render in the "new" snapshot?', () => {
  // What the "new" snapshot holds is read from the transition's pseudo-elements: a bound class gives the element a
  // view-transition-name; the ::view-transition-new(box) image exists only if the class was rendered before capture.
  const setup = () => {
    const style = document.head.appendChild(document.createElement('style'))
    style.dataset.trial = ''
    style.textContent = '.compact { view-transition-name: box } ::view-transition-group(*) { animation-duration: 2s }'
    const el = html('<p>density</p>').firstElementChild as HTMLElement
    const compact = new Signal(false)
    compact.bind(el, { class: 'compact' })
    flush()
    return { el, compact }
  }
  const captured = async (t: ViewTransition) => {
    await t.ready
    const names = document.getAnimations().map((a) => (a.effect as KeyframeEffect).pseudoElement)
    t.skipTransition()
    await t.finished.catch(() => {})
    return names.includes('::view-transition-new(box)')
  }

  it("default 'microtask' schedule: a plain write in the callback is rendered before the capture", async () => {
    const { el, compact } = setup()
    let atDone = ''
    const t = document.startViewTransition(() => void (compact.value = true))
    t.updateCallbackDone.then(() => (atDone = el.className))
    expect(await captured(t)).toBe(true)
    expect(atDone).toBe('compact') // the DOM already showed it when updateCallbackDone resolved
  })

  it('flush() inside the callback: rendered, under every schedule', async () => {
    for (const schedule of ['microtask', 'animationFrame'] as const) {
      configure({ schedule })
      const { compact } = setup()
      const t = document.startViewTransition(() => {
        compact.value = true
        flush()
      })
      expect(await captured(t)).toBe(true)
      document.body.replaceChildren()
    }
  })

  it('returning settled() from the callback: rendered, with the default and a macrotask schedule', async () => {
    // (Not with 'animationFrame': no frame comes while the callback's promise is pending. See browser-changes.test.ts.)
    const schedules = ['microtask', (f: () => void) => void setTimeout(f, 50)] as const
    for (const schedule of schedules) {
      configure({ schedule })
      const { compact } = setup()
      const t = document.startViewTransition(() => {
        compact.value = true
        return settled()
      })
      expect(await captured(t)).toBe(true)
      document.body.replaceChildren()
    }
  })
})

describe('a form-associated custom element whose value is a signal', () => {
  // <theme-picker>: static formAssociated, ElementInternals.setFormValue. Its value is a property the app binds
  // one-way; it reports the user's picks and its form's reset with a 'change' event, which the app writes back.
  class ThemePicker extends HTMLElement {
    static formAssociated = true
    #internals = this.attachInternals()
    #value = 'system'
    get value() { return this.#value }
    set value(v: string) {
      this.#value = v
      this.#internals.setFormValue(v)
      for (const b of this.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.value == v))
    }
    connectedCallback() {
      this.innerHTML = ['light', 'dark', 'system'].map((t) => `<button type="button" value="${t}">${t}</button>`).join('')
      this.value = this.#value
      this.addEventListener('click', (e) => {
        const b = (e.target as Element).closest('button')
        if (b) this.#pick(b.value)
      })
    }
    formResetCallback() { this.#pick(this.getAttribute('value') ?? 'system') }
    #pick(v: string) {
      this.value = v
      this.dispatchEvent(new Event('change', { bubbles: true }))
    }
  }
  if (!customElements.get('theme-picker')) customElements.define('theme-picker', ThemePicker)

  const mount = () => {
    const root = html('<form><theme-picker name="theme" value="light"></theme-picker><input name="nick" value="ada"></form>')
    const form = $<HTMLFormElement>(root, 'form')
    const picker = $<ThemePicker>(root, 'theme-picker')
    const theme = new Signal('dark')
    theme.bind(picker, 'value')
    picker.addEventListener('change', () => (theme.value = picker.value))
    return { form, picker, theme }
  }

  it('signal -> value -> FormData; a click -> signal; form.reset() -> formResetCallback -> signal', async () => {
    const { form, picker, theme } = mount()
    await settled()
    expect(new FormData(form).get('theme')).toBe('dark')
    await userEvent.click($(picker, 'button[value=system]'))
    expect(theme.value).toBe('system')
    expect(new FormData(form).get('theme')).toBe('system')

    form.reset() // formResetCallback runs inside reset(), synchronously
    expect(picker.value).toBe('light')
    expect(theme.value).toBe('light')
    expect(new FormData(form).get('theme')).toBe('light')

    theme.value = 'dark' // and the signal restores it
    await settled()
    expect(new FormData(form).get('theme')).toBe('dark')
    expect($(picker, 'button[value=dark]').getAttribute('aria-pressed')).toBe('true')
  })

  it("README: form.reset() fires no input/change on native fields; the reset listener's setTimeout dispatch fixes it", async () => {
    // README (.bind, form.reset()): "fires no `input` or `change` event, so the signals keep their values. To have
    // them follow, dispatch one on each field from the form's `reset` listener, in a `setTimeout` (the fields are
    // reset after it)."
    const { form } = mount()
    const nick = new Signal('grace')
    const field = $<HTMLInputElement>(form, 'input')
    nick.bind(field, { model: 'input' })
    await settled()
    expect(field.value).toBe('grace')
    let atListener = ''
    form.addEventListener('reset', () => {
      atListener = field.value
      setTimeout(() => field.dispatchEvent(new Event('input', { bubbles: true })))
    })
    form.reset()
    expect(atListener).toBe('grace') // the fields are reset after the listener
    expect(field.value).toBe('ada')
    expect(nick.value).toBe('grace') // no event
    await new Promise((r) => setTimeout(r, 0))
    expect(nick.value).toBe('ada')
  })
})
