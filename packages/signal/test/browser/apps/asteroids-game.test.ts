// An asteroids game (./asteroids.ts) in real Chromium: hundreds of entities in signals, a rAF loop writing them in
// batch(), one drawing effect per canvas layer, per-entity effects and bindings made in effects and disposed in
// cleanups, a bound HUD, a { model } pause menu driven by userEvent, loop() AI, yieldToMain() level loads, monitor().
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { userEvent } from 'vitest/browser'
import { configure, flush, settled } from '@eddy/signal'
import { macrotask } from '@eddy/scheduler'
import { collectUntil } from '../../../../../scripts/gc.ts'
import { createGame, settings, stats, subsOf, type Game, type GameOptions } from './asteroids.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const frame = () => new Promise<number>((r) => requestAnimationFrame(r))
const frames = async (n: number) => {
  for (let i = 0; i < n; i++) await frame()
}
const block = (ms: number) => {
  const end = performance.now() + ms
  while (performance.now() < end);
}
const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, sleep(ms).then(() => { throw new Error(`${what}: not within ${ms} ms`) })])

let reported: unknown[] = []
let games: Game[] = []
function mount(opts: GameOptions = {}) {
  const root = document.body.appendChild(document.createElement('main'))
  const g = createGame(root, opts)
  games.push(g)
  return g
}

function expectHudMatchesState(g: Game) {
  expect(g.$('.score').textContent).toBe(String(g.score.value))
  expect(g.$('.lives').textContent).toBe(`♥${g.lives.value}`)
  expect(g.$('.lives').classList.contains('danger')).toBe(g.lives.value <= 1)
  expect(parseFloat(g.$('.health').style.width)).toBeCloseTo((g.lives.value / 3) * 100, 3)
  expect(g.$('.level').getAttribute('data-level')).toBe(String(g.level.value))
  expect(g.$('.level').textContent).toBe(`L${g.level.value}`)
  expect(g.$('.count').textContent).toBe(String(g.rockCount.value))
  expect(g.$('.drawn').textContent).toBe(String(g.drawn.value))
  expect(g.$('.state').textContent).toBe(g.state.value)
  expect(g.$('.tick').textContent).toBe(String(g.ticks.value))
  expect(g.$('.menu').hidden).toBe(!g.paused.value)
  expect(g.$<HTMLInputElement>('.volume').value).toBe(String(settings.volume.value))
  expect(g.$<HTMLSelectElement>('.difficulty').value).toBe(settings.difficulty.value)
  expect(g.$<HTMLInputElement>('.radar-toggle').checked).toBe(settings.showRadar.value)
}

beforeEach(() => {
  reported = []
  vi.stubGlobal('reportError', (e: unknown) => reported.push(e))
  settings.volume.value = 50
  settings.difficulty.value = 'normal'
  settings.showRadar.value = true
})
afterEach(() => {
  for (const g of games) g.dispose()
  games = []
  flush()
  configure({ schedule: 'microtask' })
  vi.unstubAllGlobals()
  document.body.replaceChildren()
})

describe.each(['microtask', 'animationFrame'] as const)('asteroids, schedule %s', (schedule) => {
  beforeEach(() => configure({ schedule }))

  it('plays with 300 rocks driven by real keys; HUD equals state after settled(); one draw per frame per layer', async () => {
    const g = mount({ rocks: 300 })
    g.start()
    await frames(3)
    const rocksBefore = stats.layerRuns.rocks, stepsBefore = g.steps
    await userEvent.keyboard('{ArrowLeft>}{ArrowUp>}{ >}')
    await sleep(400)
    await userEvent.keyboard('{/ }{/ArrowUp}{/ArrowLeft}')
    await frames(2)
    const rocksRuns = stats.layerRuns.rocks - rocksBefore, steps = g.steps - stepsBefore
    expect(g.ship.angle.peek()).toBeLessThan(0) // ArrowLeft was held
    expect(g.entities.peek().length).toBeGreaterThanOrEqual(300)
    await settled()
    expectHudMatchesState(g)
    // one run of the rocks layer per batch: each step writes ~600 position signals plus the list
    expect(rocksRuns).toBe(steps)
    expect(stats.innerRunsOnDisposed).toBe(0)
    expect(stats.liveInner).toBe(g.entities.peek().length)
    expect(stats.liveBindings).toBe(2 * g.entities.peek().length)
    // a binding disposed in the batch that had already queued it (x written, then the entity removed) wrote nothing
    const dead = stats.deadDots.filter((d) => d.isConnected || true)
    expect(dead.length).toBeGreaterThan(20)
    expect(dead.filter((d) => d.style.left !== d.dataset.leftAtDispose).map((d) => [d.style.left, d.dataset.leftAtDispose])).toEqual([])
    expect(reported).toEqual([])
  })

  it('a cursed entity whose effect throws is reported, and the game goes on', async () => {
    const g = mount({ rocks: 100 })
    g.start()
    await frames(2)
    g.curseNext()
    await frames(10)
    const s = g.steps
    await frames(10)
    expect(g.steps).toBeGreaterThan(s)
    expect(reported.length).toBeGreaterThan(0)
    expect(String(reported[0])).toMatch(/cursed entity/)
    await settled()
    expectHudMatchesState(g)
  })
})

describe('asteroids, animationFrame schedule and the rAF game loop', () => {
  /** Runs a game for `n` frames and returns, per frame, the .tick DOM writes seen in it and the step written in it. */
  async function perFrame(opts: GameOptions, n = 30) {
    configure({ schedule: 'animationFrame' })
    // Tag every rAF callback (the library's flush too) with its frame's timestamp.
    const realRaf = window.requestAnimationFrame.bind(window)
    let ts = 0
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => realRaf((t) => ((ts = t), cb(t))))
    const g = mount({ rocks: 50, ...opts })
    const writes = new Map<number, string[]>()
    const stepOf = new Map<number, number>()
    const mo = new MutationObserver((list) => {
      for (const r of list) if (r.type === 'characterData' || r.type === 'childList') {
        const a = writes.get(ts) ?? []
        a.push(g.$('.tick').textContent!)
        writes.set(ts, a)
      }
    })
    mo.observe(g.$('.tick'), { childList: true, characterData: true, subtree: true })
    g.start()
    await frames(n)
    mo.disconnect()
    for (const e of g.stepLog) stepOf.set(e.t, e.frame)
    const frameTs = [...new Set(g.stepLog.map((e) => e.t))].slice(2, -2)
    const rows = frameTs.map((t) => ({ t, steps: g.stepLog.filter((e) => e.t === t).length, writes: writes.get(t) ?? [], stepped: String(g.stepLog.find((e) => e.t === t)!.frame) }))
    // The game stepped in most of the frames waited for (26 of 30 here): the per-frame checks are not vacuous.
    expect(rows.length).toBeGreaterThanOrEqual(n / 2)
    return rows
  }

  it('every HUD binding writes at most once per frame (rAF-tagged MutationObserver)', async () => {
    configure({ schedule: 'animationFrame' })
    const realRaf = window.requestAnimationFrame.bind(window)
    let ts = 0
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => realRaf((t) => ((ts = t), cb(t))))
    const g = mount({ rocks: 200, order: 'register-last' })
    const per = new Map<string, number>()
    const key = (r: MutationRecord) => {
      const el = (r.target.nodeType === 3 ? r.target.parentNode : r.target) as Element
      return `${ts}|${el.className.split(' ')[0]}|${r.type === 'attributes' ? r.attributeName : 'text'}`
    }
    const mo = new MutationObserver((l) => l.forEach((r) => per.set(key(r), (per.get(key(r)) ?? 0) + 1)))
    mo.observe(g.$('.hud'), { subtree: true, childList: true, characterData: true, attributes: true })
    g.start()
    await userEvent.keyboard('{ >}')
    await sleep(500)
    await userEvent.keyboard('{/ }')
    mo.disconnect()
    const multi = [...per].filter(([, n]) => n > 1)
    console.log('HUD write keys', per.size, 'more than one per frame:', multi.slice(0, 5))
    expect(per.size).toBeGreaterThan(20)
    expect(multi).toEqual([])
  })

  it('register-last loop: one .tick DOM write per frame', async () => {
    const rows = await perFrame({ order: 'register-last' })
    const counts = rows.map((r) => r.writes.length)
    const stale = rows.filter((r) => r.writes.length && r.writes.at(-1) !== r.stepped).length
    console.log('register-last: writes per frame', counts.join(''), 'frames showing an older step than the one run in them:', stale, '/', rows.length)
    expect(counts.every((c) => c === 1)).toBe(true)
  })

  it('register-first loop (requestAnimationFrame called first, as many game loops do): one .tick DOM write per frame', async () => {
    const rows = await perFrame({ order: 'register-first' })
    const counts = rows.map((r) => r.writes.length)
    console.log('register-first: writes per frame', counts.join(''))
    expect(counts.every((c) => c === 1)).toBe(true)
  })

  it('flush() inside the rAF callback: the HUD shows this frame\'s step, one write per frame', async () => {
    const rows = await perFrame({ order: 'register-first', flushInFrame: true })
    const counts = rows.map((r) => r.writes.length)
    console.log('flushInFrame: writes per frame', counts.join(''))
    expect(counts.every((c) => c === 1)).toBe(true)
    for (const r of rows) expect(r.writes[0]).toBe(r.stepped)
  })

  it('settled() resolves under animationFrame while the rAF loop keeps writing', async () => {
    configure({ schedule: 'animationFrame' })
    const g = mount({ rocks: 200 })
    g.start()
    await frames(3)
    for (let i = 0; i < 10; i++) {
      g.kills.value += 1
      await within(settled(), 1000, `settled() #${i}`)
      expect(g.$('.score').textContent).toBe(String(g.score.peek()))
    }
    // and from inside the rAF callback (a frame's writes, then settled() awaited in the same callback)
    let ok = 0
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve, reject) =>
        requestAnimationFrame(async () => {
          g.kills.value += 1
          try {
            await within(settled(), 1000, 'settled() from rAF')
            ok++
            resolve()
          } catch (e) {
            reject(e)
          }
        }),
      )
    }
    expect(ok).toBe(5)
  })

  it('switching schedules mid-game keeps the HUD in step', async () => {
    const g = mount({ rocks: 200 })
    g.start()
    const seq: Parameters<typeof configure>[0][] = [
      { schedule: 'animationFrame' },
      { schedule: (f) => void macrotask(f) },
      { schedule: 'microtask' },
      { schedule: (f) => f() },
      { schedule: 'animationFrame' },
      { schedule: 'microtask' },
    ]
    for (const s of seq) {
      configure(s)
      await frames(5)
      g.kills.value += 3
      await within(settled(), 1000, `settled after switching to ${String(s.schedule)}`)
      expectHudMatchesState(g)
    }
    // switching inside the rAF callback, between the frame's writes
    for (const s of seq) {
      await new Promise<void>((resolve) =>
        requestAnimationFrame(() => {
          g.kills.value += 1
          configure(s)
          g.deaths.value = g.deaths.peek() === 0 ? 1 : 0
          resolve()
        }),
      )
      await within(settled(), 1000, `settled after switching in rAF to ${String(s.schedule)}`)
      expectHudMatchesState(g)
    }
    expect(reported).toEqual([])
  })
})

describe('asteroids, drawing effects', () => {
  it('a drawing effect whose first run writes a signal it reads: effect() throws "Cycle detected" (documented)', () => {
    expect(() => mount({ rocks: 10, selfWritingDraw: true })).toThrow('Cycle detected')
  })

  it('a drawing effect that starts writing a signal it reads mid-game ends with "Cycle detected", reported, and the game goes on', async () => {
    const g = mount({ rocks: 100, catchErrors: true })
    g.start()
    await frames(3)
    g.setSelfWriting(true)
    const before = stats.layerRuns.rocks, s0 = g.steps
    await frames(10)
    const runs = stats.layerRuns.rocks - before, steps = g.steps - s0
    const cycles = reported.filter((e) => /Cycle detected/.test(String(e))).length
    console.log('self-writing draw: layer runs', runs, 'steps', steps, 'reported', reported.length, 'cycles', cycles, String(reported[0]))
    expect(steps).toBeGreaterThan(5)
    expect(cycles).toBeGreaterThan(0)
    expect(runs / steps).toBeLessThan(1000) // finite
    g.setSelfWriting(false)
    g.paused.value = true
    await settled()
    expectHudMatchesState(g)
  })

  it('quality drops under monitor() pressure (a 300 ms stall), and the draw follows', async () => {
    const g = mount({ rocks: 100, monitor: true })
    g.start()
    await sleep(300)
    block(300)
    for (let i = 0; i < 40 && g.quality.peek() !== 'low'; i++) await sleep(50)
    expect(g.pressureEvents).toBe(1)
    expect(g.quality.peek()).toBe('low')
  })
})

describe('asteroids, AI and level loads', () => {
  it('AI in loop() runs between frames; stray writes to removed ufos run nothing', async () => {
    const g = mount({ rocks: 150, ai: true })
    await g.loadLevel(8)
    g.start()
    const f0 = g.frame
    await sleep(600)
    console.log('AI steps', g.aiSteps, 'frames', g.frame - f0, 'AI writes to removed ufos', g.aiWritesToRemoved)
    expect(g.aiSteps).toBeGreaterThan(20)
    expect(g.frame - f0).toBeGreaterThan(10)
    // kill every ufo mid-AI; the loop may still hold one
    for (const e of g.entities.peek()) if (e.kind === 'ufo') (e.alive.value = false), g.remove(e)
    await sleep(100)
    expect(stats.innerRunsOnDisposed).toBe(0)
    expect(reported).toEqual([])
  })

  it('a level load yields to the main thread: timers and input get in, the game shows LOADING', async () => {
    const g = mount({ rocks: 300 })
    g.start()
    await frames(2)
    let timerFired = 0
    const id = setInterval(() => timerFired++, 0)
    const p = g.loadLevel(5, 20)
    await settled()
    expect(g.$('.state').textContent).toBe('LOADING')
    const s = g.steps
    await p
    clearInterval(id)
    expect(g.steps).toBe(s) // no step while loading
    expect(g.loadYields).toBeGreaterThan(10)
    expect(timerFired).toBeGreaterThan(3)
    await settled()
    expectHudMatchesState(g)
    expect(g.entities.peek().filter((e) => e.kind === 'ufo')).toHaveLength(5)
    expect(stats.liveInner).toBe(g.entities.peek().length)
  })
})

describe('asteroids, pause menu and visibility', () => {
  it('pause with a real key, change settings with real input, resume', async () => {
    const g = mount({ rocks: 100 })
    g.start()
    await frames(3)
    await userEvent.keyboard('p')
    await settled()
    expect(g.$('.menu').hidden).toBe(false)
    const s = g.steps
    await frames(5)
    expect(g.steps).toBe(s)
    const range = g.$<HTMLInputElement>('.volume')
    range.focus()
    await userEvent.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}')
    expect(settings.volume.peek()).toBe(53)
    await userEvent.selectOptions(g.$<HTMLSelectElement>('.difficulty'), 'hard')
    expect(settings.difficulty.peek()).toBe('hard')
    g.kills.value = 4
    await userEvent.click(g.$('.radar-toggle'))
    expect(settings.showRadar.peek()).toBe(false)
    await settled()
    expect(stats.liveInner).toBe(0) // the radar went away with the checkbox
    expect(g.root.querySelectorAll('.radar i:not([data-dead])')).toHaveLength(0)
    expectHudMatchesState(g)
    expect(g.$('.score').textContent).toBe('120')
    ;(document.activeElement as HTMLElement).blur()
    await userEvent.keyboard('{Escape}')
    await frames(3)
    expect(g.steps).toBeGreaterThan(s)
  })

  it('pauses when the tab is hidden (visibilityState override); renders still come with the microtask schedule', async () => {
    // A background tab: frames stop (every rAF callback, posted before or after, is held until visible again).
    const realRaf = window.requestAnimationFrame.bind(window)
    let tabHidden = false
    const held: [FrameRequestCallback, number][] = []
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => realRaf((t) => (tabHidden ? held.push([cb, t]) : cb(t))))
    configure({ schedule: 'animationFrame' })
    const g = mount({ rocks: 100, monitor: true })
    g.start()
    await frames(3)
    tabHidden = true
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' })
    document.dispatchEvent(new Event('visibilitychange'))
    expect(g.hidden.peek()).toBe(true)
    expect(g.monitor).toBeUndefined()
    const s = g.steps
    let done = false
    void settled().then(() => (done = true))
    await sleep(100)
    expect(g.steps).toBe(s)
    expect(done).toBe(false) // as the README says: no frame in a background tab
    expect(g.$('.state').textContent).toBe('PLAY')
    configure({ schedule: 'microtask' }) // posts what waits the new way
    await within(settled(), 500, 'settled after switching to microtask')
    expect(done).toBe(true)
    expect(g.$('.state').textContent).toBe('PAUSED')
    configure({ schedule: 'animationFrame' })
    // visible again
    delete (document as any).visibilityState
    tabHidden = false
    document.dispatchEvent(new Event('visibilitychange'))
    for (const [cb, t] of held.splice(0)) cb(t)
    await settled()
    expect(g.$('.state').textContent).toBe('PLAY')
    await frames(3)
    expect(g.steps).toBeGreaterThan(s)
    await settled()
    expectHudMatchesState(g)
    expect(reported).toEqual([])
  })
})

describe('asteroids, game over and 50 restarts', () => {
  it('disposes everything at game over; nothing leaks or runs after disposal over 50 restarts', { timeout: 120_000 }, async () => {
    configure({ schedule: 'animationFrame' })
    const baseVolumeSubs = subsOf(settings.volume as any)
    const baseRadarSubs = subsOf(settings.showRadar as any)
    const baseDiffSubs = subsOf(settings.difficulty as any)
    const old: Game[] = []
    for (let round = 0; round < 50; round++) {
      if (round === 25) configure({ schedule: 'microtask' })
      const g = mount({ rocks: 120, ai: round % 2 === 0, order: round % 3 ? 'register-first' : 'register-last', flushInFrame: round % 5 === 0 })
      g.start()
      await frames(4)
      g.deaths.value = 3 // game over
      await settled()
      expect(g.$('.state').textContent).toBe('GAME OVER')
      g.dispose()
      games.splice(games.indexOf(g), 1)
      expect(stats.liveInner).toBe(0)
      expect(stats.liveLife).toBe(0)
      expect(stats.liveBindings).toBe(0)
      old.push(g)
    }
    await frames(3)
    const runsAfter = stats.runsAfterDispose
    expect(runsAfter).toBe(0)
    expect(subsOf(settings.volume as any)).toBe(baseVolumeSubs)
    expect(subsOf(settings.showRadar as any)).toBe(baseRadarSubs)
    expect(subsOf(settings.difficulty as any)).toBe(baseDiffSubs)
    // Writes to the state of disposed games: no binding writes, no effect runs.
    const mos = old.map((g) => {
      const rec: MutationRecord[] = []
      const mo = new MutationObserver((l) => rec.push(...l))
      mo.observe(g.root, { subtree: true, childList: true, characterData: true, attributes: true })
      return { mo, rec }
    })
    const inner = stats.innerRuns, layers = { ...stats.layerRuns }
    for (const g of old) {
      g.kills.value += 7
      g.deaths.value = 0
      g.ship.x.value = 1
      for (const e of g.entities.peek()) (e.x.value = 3), (e.vx.value = 9)
    }
    settings.volume.value = 77
    settings.showRadar.value = false
    settings.difficulty.value = 'easy'
    await frames(2)
    await settled()
    const mutations = mos.reduce((n, m) => (m.mo.disconnect(), n + m.mo.takeRecords().length + m.rec.length), 0)
    expect(mutations).toBe(0)
    expect(stats.innerRuns).toBe(inner)
    expect(stats.layerRuns).toEqual(layers)
    expect(stats.runsAfterDispose).toBe(0)
    // old model inputs no longer write the settings
    const r = old[0]!.$<HTMLInputElement>('.volume')
    r.value = '5'
    r.dispatchEvent(new Event('input', { bubbles: true }))
    expect(settings.volume.peek()).toBe(77)
    expect(reported).toEqual([])
  })
})

describe('asteroids, garbage', () => {
  it('a disposed game is garbage-collected while the settings signals live on', { timeout: 60_000 }, async () => {
    let refs: WeakRef<object>[] = []
    await (async () => {
      const root = document.body.appendChild(document.createElement('main'))
      const g = createGame(root, { rocks: 100, ai: true })
      g.start()
      await frames(4)
      g.dispose()
      root.remove()
      refs = [new WeakRef(root), new WeakRef(g.$('.rocks')), new WeakRef(g.entities), new WeakRef(g.entities.peek()[0]!.x)]
    })()
    await frames(2)
    const ok = await collectUntil(() => refs.every((r) => r.deref() === undefined))
    console.log('collected', refs.map((r) => r.deref() === undefined))
    expect(ok).toBe(true)
  })
})
