// The test bed itself: frame.html's policy is really enforced (not report-only), and what it loads is the packages'
// dist as built, with nothing else in the frame that the policy blocks.
import { afterEach, expect, it } from 'vitest'
import signalDist from '../../../../dist/index.js?raw'
import schedulerDist from '../../../../../scheduler/dist/index.js?raw'
import { closeFrames, openCspFrame, tick, trustedTypesOf } from './csp-harness.ts'

afterEach(closeFrames)

it('enforces the policy: inline script and style, style attributes, eval, string timers and string HTML are blocked', async () => {
  const { win, doc } = await openCspFrame()
  // The inline <script> in frame.html did not run; the inline <style> and style="" were not applied.
  expect(win.inlineRan).toBeUndefined()
  expect(win.getComputedStyle(doc.getElementById('probe-inline-style')!).color).not.toBe('rgb(255, 0, 0)')
  expect(win.getComputedStyle(doc.getElementById('probe-style-attr')!).color).not.toBe('rgb(0, 128, 0)')
  // eval and new Function in the frame's realm.
  expect(() => win.eval('1 + 1')).toThrow(/unsafe-eval|Content Security Policy/)
  expect(() => new win.Function('return 1')).toThrow()
  // A string timer is refused (Trusted Types: a TrustedScript is required).
  ;(win as any).stringTimerRan = false
  expect(() => win.setTimeout('window.stringTimerRan = true' as any, 0)).toThrow(/TrustedScript/)
  // setAttribute('style') is stored but not applied; CSSOM is.
  const p = doc.createElement('p')
  doc.body.append(p)
  p.setAttribute('style', 'color: rgb(0, 0, 255)')
  expect(win.getComputedStyle(p).color).not.toBe('rgb(0, 0, 255)')
  p.style.setProperty('color', 'rgb(1, 2, 3)')
  expect(win.getComputedStyle(p).color).toBe('rgb(1, 2, 3)')
  // Trusted Types: a string to innerHTML throws, and no policy outside the allow-list can be made.
  expect(() => { p.innerHTML = '<b>x</b>' }).toThrow(/TrustedHTML/)
  expect(() => trustedTypesOf(win).createPolicy('not-allowed', { createHTML: (s: string) => s })).toThrow()
  await tick(win)
  expect((win as any).stringTimerRan).toBe(false)
  const directives = win.violations.map((v) => v.directive)
  expect(directives).toEqual(expect.arrayContaining(['style-src-attr', 'require-trusted-types-for', 'trusted-types']))
  expect(win.violations.every((v) => v.disposition == 'enforce')).toBe(true)
})

it('loads the dist as built: the frame runs the shipped files, and nothing in them needs eval, Function or string timers', async () => {
  const { win } = await openCspFrame()
  // The frame got the files on disk (Vite serves them as they are: they import nothing).
  for (const [path, text] of [['/packages/signal/dist/index.js', signalDist], ['/packages/scheduler/dist/index.js', schedulerDist]]) {
    const served = await (await fetch(path)).text()
    expect(served.startsWith(text.trimEnd().slice(0, 2000))).toBe(true)
  }
  // A static scan of what ships: no code-from-string and no inline-style writes.
  for (const text of [signalDist, schedulerDist]) {
    expect(text).not.toMatch(/\beval\b|\bFunction\(|setTimeout\(\s*['"`]|setAttribute\(\s*['"`]style|\.cssText|insertRule|document\.write|insertAdjacentHTML|outerHTML\s*=/)
  }
  // The frame's window runs eddy's exports.
  expect(typeof win.eddy.Signal).toBe('function')
  expect(win.sched.strategy).toBe('postTask')
  // Loading both packages caused no violation.
  await tick(win)
  expect(win.violations).toEqual([])
})
