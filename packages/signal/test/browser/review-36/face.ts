// Form-associated custom elements for the review-36 { model } tests, written as design systems write them.
let n = 0
/** Defines `cls` under a fresh name in `registry` and returns the name. */
export function define(cls: CustomElementConstructor, registry: CustomElementRegistry = customElements): string {
  const name = `r36-face-${n++}`
  registry.define(name, cls)
  return name
}

/** A text field: an <input> in its shadow root; its `input` (composed) reaches the host, `change` is re-dispatched. */
export class TextFace extends HTMLElement {
  static formAssociated = true
  internals = this.attachInternals()
  input: HTMLInputElement
  constructor() {
    super()
    const root = this.attachShadow({ mode: 'open' })
    this.input = document.createElement('input')
    root.append(this.input)
    this.input.addEventListener('input', () => this.sync())
    this.input.addEventListener('change', () => this.dispatchEvent(new Event('change', { bubbles: true })))
  }
  get type() { return this.getAttribute('type') ?? 'text' }
  get value() { return this.input.value }
  set value(v: string) { this.input.value = v; this.sync() }
  get validity() { return this.internals.validity }
  sync() {
    this.internals.setFormValue(this.input.value)
    // A number field reports a partial entry as badInput, as a native one does.
    if (this.type == 'number') this.internals.setValidity(this.input.validity.badInput ? { badInput: true } : {}, 'bad', this.input)
  }
  formResetCallback() { this.value = this.getAttribute('value') ?? ''; this.dispatchEvent(new Event('change', { bubbles: true })) }
  /** The user types `text` (an insertText in the inner field). */
  typeText(text: string, init: InputEventInit = {}) {
    this.input.value = text
    this.input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', ...init }))
  }
}

/** A switch as Material's md-checkbox: `type` reads 'checkbox', `checked`, `value` 'on'; input + change on a click. */
export class CheckFace extends HTMLElement {
  static formAssociated = true
  readonly type = 'checkbox'
  internals = this.attachInternals()
  #checked = false
  get checked() { return this.#checked }
  set checked(v: boolean) { this.#checked = v; this.internals.setFormValue(v ? this.value : null); this.toggleAttribute('checked', v) }
  get value() { return this.getAttribute('value') ?? 'on' }
  click() {
    this.checked = !this.checked
    this.dispatchEvent(new Event('input', { bubbles: true, composed: true }))
    this.dispatchEvent(new Event('change', { bubbles: true }))
  }
}

/** A radio as Material's md-radio: `type` 'radio', `checked`, `value`. */
export class RadioFace extends CheckFace {
  // @ts-expect-error a narrower literal than the base's
  readonly type = 'radio'
  click() {
    for (const r of document.querySelectorAll(this.localName)) if (r != this) (r as RadioFace).checked = false
    this.checked = true
    this.dispatchEvent(new Event('change', { bubbles: true }))
  }
}
