// A small real-time canvas game (asteroids), written the way the READMEs teach: every entity's position and velocity
// in signals, score/lives/level computeds, a HUD bound with .bind(), a pause menu with { model } settings, a rAF game
// loop that writes hundreds of signals per frame in batch(), one drawing effect per canvas layer, per-entity effects
// and bindings created inside an effect and disposed in its cleanup, AI pathfinding in loop(), yieldToMain() during a
// level load, monitor() to drop quality under pressure. Instrumented with counters for the tests.
import { Signal, batch, computed, effect, flush, untracked, type Binding, type Dispose } from '@eddy/signal'
import { loop, monitor, yieldToMain, type Loop, type Monitor } from '@eddy/scheduler'
import { rng } from '../dom.ts'

export const W = 640
export const H = 480
const GRID = 16 // pathfinding cell size

/** Settings live across games, as a real game's do: leaks of subscribers on them would pile up across restarts. */
export const settings = {
  volume: new Signal(50),
  difficulty: new Signal('normal'),
  showRadar: new Signal(true),
}

/** Counters shared by every game instance (for leak checks across restarts). */
export const stats = {
  liveLife: 0, // per-entity outer effects alive
  liveInner: 0, // per-entity inner effects alive
  liveBindings: 0, // per-entity bindings alive
  innerRunsOnDisposed: 0, // an inner effect ran for an entity already removed
  innerRuns: 0,
  layerRuns: { bg: 0, rocks: 0, ship: 0 },
  runsAfterDispose: 0, // anything of a disposed game that ran
  deadDots: [] as HTMLElement[], // radar dots of removed entities (their bindings disposed), last 500
}

export interface Entity {
  id: number
  kind: 'rock' | 'bullet' | 'ufo'
  x: Signal<number>
  y: Signal<number>
  vx: Signal<number>
  vy: Signal<number>
  alive: Signal<boolean>
  heading: number // derived by the inner effect
  cursed: boolean // its inner effect throws once it has moved (tests)
  spawnX: number
  removed: boolean // taken out of the game (set before disposing)
  dispose: Dispose
}

export interface GameOptions {
  rocks?: number
  /** rAF loop: 'register-first' calls requestAnimationFrame before the writes; 'register-last' after. */
  order?: 'register-first' | 'register-last'
  /** Call flush() at the end of each rAF step (HUD rendered in the same frame). */
  flushInFrame?: boolean
  /** The rocks layer also counts its draws into a signal it reads (a write that re-triggers the effect). */
  selfWritingDraw?: boolean
  ai?: boolean
  monitor?: boolean
  seed?: number
  onFrame?: (frame: number, g: Game) => void
  /** The rAF callback catches what a step throws and reports it (a robust loop). */
  catchErrors?: boolean
}

export type Game = ReturnType<typeof createGame>

export function createGame(root: HTMLElement, opts: GameOptions = {}) {
  const rand = rng(opts.seed ?? 1)
  root.innerHTML = `
    <div class="stage" style="position:relative;width:${W}px;height:${H}px">
      <canvas class="bg" width="${W}" height="${H}" style="position:absolute"></canvas>
      <canvas class="rocks" width="${W}" height="${H}" style="position:absolute"></canvas>
      <canvas class="ship" width="${W}" height="${H}" style="position:absolute"></canvas>
    </div>
    <div class="hud">
      <span class="score"></span> <span class="lives"></span> <span class="level"></span>
      <div class="health" style="height:4px;background:red"></div>
      <span class="count"></span> <span class="drawn"></span> <span class="state"></span> <span class="tick"></span>
    </div>
    <div class="radar" style="position:relative;width:160px;height:120px"></div>
    <form class="menu" hidden>
      <input class="volume" type="range" min="0" max="100" step="1">
      <select class="difficulty"><option value="easy">easy</option><option value="normal">normal</option><option value="hard">hard</option></select>
      <input class="radar-toggle" type="checkbox">
    </form>`
  const $ = <E extends Element = HTMLElement>(s: string) => root.querySelector<E>(s)!
  let disposed = false
  const guard = () => {
    if (disposed) stats.runsAfterDispose++
  }

  // ---- state
  let nextId = 1
  const entities = new Signal<Entity[]>([])
  const ship = { x: new Signal(W / 2), y: new Signal(H / 2), angle: new Signal(0), vx: new Signal(0), vy: new Signal(0) }
  const kills = new Signal(0)
  const deaths = new Signal(0)
  const paused = new Signal(false)
  const hidden = new Signal(false)
  const quality = new Signal<'high' | 'low'>('high')
  const drawn = new Signal(0) // written by the rocks layer, shown by the HUD
  const drawCalls = new Signal(0) // read and written by the rocks layer when selfWritingDraw
  const loading = new Signal(false)
  const ticks = new Signal(0) // the step number, bound to the HUD: changes every frame
  const keys = new Set<string>()
  let selfWriting = false

  const level = computed(() => 1 + Math.floor(kills.value / 20))
  const mult = computed(() => ({ easy: 1, normal: 2, hard: 3 })[settings.difficulty.value as 'easy'] ?? 2)
  const score = computed(() => kills.value * 10 * mult.value)
  const lives = computed(() => Math.max(0, 3 - deaths.value))
  const over = computed(() => lives.value === 0)
  const rockCount = computed(() => entities.value.filter((e) => e.kind === 'rock').length)
  const state = computed(() => (over.value ? 'GAME OVER' : hidden.value || paused.value ? 'PAUSED' : loading.value ? 'LOADING' : 'PLAY'))

  // ---- HUD
  const hud: Binding[] = [
    score.bind($('.score')),
    lives.bind($('.lives'), { format: (l) => `♥${l}` }),
    lives.bind($('.lives'), { class: 'danger', format: (l) => l <= 1 }),
    lives.bind($('.health'), { style: 'width', format: (l) => `${(l / 3) * 100}%` }),
    level.bind($('.level'), { attr: 'data-level' }),
    level.bind($('.level'), { format: (l) => `L${l}` }),
    rockCount.bind($('.count')),
    drawn.bind($('.drawn')),
    state.bind($('.state')),
    ticks.bind($('.tick')),
    paused.bind($('.menu'), { format: (p: boolean) => !p, attr: 'hidden' }),
    settings.volume.bind($('.volume'), { model: 'input' }),
    settings.difficulty.bind($('.difficulty'), { model: 'change' }),
    settings.showRadar.bind($('.radar-toggle'), { model: 'change' }),
  ]

  // ---- canvas layers: one effect each
  const ctx = (s: string) => $<HTMLCanvasElement>(s).getContext('2d')!
  const bgCtx = ctx('.bg'), rockCtx = ctx('.rocks'), shipCtx = ctx('.ship')
  const layers: Dispose[] = [
    effect(() => {
      guard()
      stats.layerRuns.bg++
      const l = level.value
      bgCtx.fillStyle = `hsl(${(l * 40) % 360} 40% 8%)`
      bgCtx.fillRect(0, 0, W, H)
    }),
    effect(() => {
      guard()
      stats.layerRuns.rocks++
      const list = entities.value
      const q = quality.value
      rockCtx.clearRect(0, 0, W, H)
      let n = 0
      for (const e of list) {
        const x = e.x.value, y = e.y.value
        rockCtx.fillStyle = e.kind === 'rock' ? '#aaa' : e.kind === 'ufo' ? '#f0f' : '#ff0'
        if (q === 'high') {
          rockCtx.beginPath()
          rockCtx.arc(x, y, e.kind === 'rock' ? 8 : 3, 0, 7)
          rockCtx.fill()
        } else rockCtx.fillRect(x - 2, y - 2, 4, 4)
        n++
      }
      drawn.value = n // a write inside a drawing effect: another signal, shown by the HUD
      if (opts.selfWritingDraw || selfWriting) drawCalls.value++ // reads and writes the same signal: re-triggers itself
    }),
    effect(() => {
      guard()
      stats.layerRuns.ship++
      const x = ship.x.value, y = ship.y.value, a = ship.angle.value
      shipCtx.clearRect(0, 0, W, H)
      shipCtx.save()
      shipCtx.translate(x, y)
      shipCtx.rotate(a)
      shipCtx.strokeStyle = over.value ? 'red' : 'white'
      shipCtx.beginPath()
      shipCtx.moveTo(10, 0), shipCtx.lineTo(-8, 6), shipCtx.lineTo(-8, -6), shipCtx.closePath()
      shipCtx.stroke()
      shipCtx.restore()
    }),
  ]

  // ---- entities: an outer effect per entity creates an inner effect and bindings, disposed in its cleanup
  const radar = $('.radar')
  function spawn(kind: Entity['kind'], x: number, y: number, vx: number, vy: number, cursed = false): Entity {
    const e: Entity = {
      id: nextId++,
      kind,
      x: new Signal(x),
      y: new Signal(y),
      vx: new Signal(vx),
      vy: new Signal(vy),
      alive: new Signal(true),
      heading: 0,
      cursed,
      spawnX: x,
      removed: false,
      dispose: undefined!,
    }
    e.dispose = effect(() => {
      guard()
      if (!e.alive.value || !settings.showRadar.value) return
      const dot = radar.appendChild(document.createElement('i'))
      dot.className = kind
      dot.style.position = 'absolute'
      const bindings = [
        e.x.bind(dot, { style: 'left', format: (v) => `${((v / W) * 100).toFixed(1)}%` }),
        e.y.bind(dot, { style: 'top', format: (v) => `${((v / H) * 100).toFixed(1)}%` }),
      ]
      stats.liveBindings += 2
      const stopInner = effect(() => {
        guard()
        stats.innerRuns++
        if (e.removed) stats.innerRunsOnDisposed++
        e.heading = Math.atan2(e.vy.value, e.vx.value)
        const x = e.x.value // every entity's inner effect follows its position
        if (e.cursed && x !== e.spawnX) throw new Error(`cursed entity ${e.id}`)
      })
      stats.liveInner++
      stats.liveLife++
      return () => {
        stopInner()
        stats.liveInner--
        stats.liveLife--
        for (const b of bindings) b.dispose()
        stats.liveBindings -= 2
        dot.dataset.dead = '1'
        dot.dataset.leftAtDispose = dot.style.left
        stats.deadDots.push(dot)
        if (stats.deadDots.length > 500) stats.deadDots.shift()
        ;(e as any).lastDot = dot
        queueMicrotask(() => dot.remove())
      }
    })
    return e
  }
  function remove(e: Entity) {
    e.removed = true
    e.dispose()
  }

  function randomRock(): Entity {
    const edge = rand() < 0.5
    return spawn('rock', edge ? 0 : rand() * W, edge ? rand() * H : 0, (rand() - 0.5) * 120, (rand() - 0.5) * 120)
  }

  // ---- input
  const onKey = (ev: KeyboardEvent) => {
    if (ev.type === 'keydown') {
      if (ev.key === 'p' || ev.key === 'Escape') paused.value = !paused.peek()
      keys.add(ev.key)
    } else keys.delete(ev.key)
  }
  window.addEventListener('keydown', onKey)
  window.addEventListener('keyup', onKey)
  const onVisibility = () => {
    hidden.value = document.visibilityState === 'hidden'
    if (hidden.peek()) mon?.stop(), (mon = undefined)
    else if (opts.monitor) startMonitor()
  }
  document.addEventListener('visibilitychange', onVisibility)

  // ---- the game loop
  let frame = 0
  let rafId = 0
  let last = 0
  let steps = 0
  let fireCooldown = 0
  let cursedNext = false
  const stepLog: { frame: number; t: number; score: number }[] = []
  function step(dt: number) {
    steps++
    batch(() => {
      ticks.value = steps
      // ship
      let a = ship.angle.peek()
      if (keys.has('ArrowLeft')) a -= 4 * dt
      if (keys.has('ArrowRight')) a += 4 * dt
      ship.angle.value = a
      if (keys.has('ArrowUp')) {
        ship.vx.value = ship.vx.peek() + Math.cos(a) * 200 * dt
        ship.vy.value = ship.vy.peek() + Math.sin(a) * 200 * dt
      }
      ship.x.value = (ship.x.peek() + ship.vx.peek() * dt + W) % W
      ship.y.value = (ship.y.peek() + ship.vy.peek() * dt + H) % H
      fireCooldown -= dt
      const list = entities.peek()
      const next: Entity[] = []
      let changed = false
      if (keys.has(' ') && fireCooldown <= 0) {
        fireCooldown = 0.1
        next.push(spawn('bullet', ship.x.peek(), ship.y.peek(), Math.cos(a) * 400, Math.sin(a) * 400))
        changed = true
      }
      // move everything (hundreds of writes)
      for (const e of list) {
        e.x.value = (e.x.peek() + e.vx.peek() * dt + W) % W
        e.y.value = (e.y.peek() + e.vy.peek() * dt + H) % H
      }
      // collisions: bullets vs rocks
      const bullets = list.filter((e) => e.kind === 'bullet')
      const dead = new Set<Entity>()
      for (const b of bullets) {
        for (const r of list) {
          if (r.kind === 'bullet' || dead.has(r)) continue
          if (Math.abs(r.x.peek() - b.x.peek()) < 10 && Math.abs(r.y.peek() - b.y.peek()) < 10) {
            dead.add(r), dead.add(b)
            kills.value++
            break
          }
        }
      }
      // bullets age out: constantly destroyed
      for (const e of list) if (e.kind === 'bullet' && (e as any).age++ > 40) dead.add(e)
      // churn: a few rocks die and respawn every frame (spawned and destroyed constantly)
      for (let i = 0; i < 3 && list.length; i++) dead.add(list[Math.floor(rand() * list.length)]!)
      for (const e of list) {
        if (dead.has(e)) {
          e.alive.value = false // its outer effect's cleanup runs at the end of the batch...
          remove(e) // ...or now: disposed after its x/y were written in this batch (its inner effect is queued)
          changed = true
        } else next.push(e)
      }
      while (next.filter((e) => e.kind === 'rock').length < (opts.rocks ?? 300)) {
        const r = randomRock()
        if (cursedNext) (r.cursed = true), (cursedNext = false), (r.spawnX = r.x.peek())
        next.push(r)
        changed = true
      }
      for (const e of next) if (e.kind === 'bullet') (e as any).age ??= 0
      if (changed) entities.value = next
    })
  }
  function tick(t: number) {
    if (disposed) return stats.runsAfterDispose++
    frame++
    if (opts.order !== 'register-last') rafId = requestAnimationFrame(tick)
    const dt = last ? Math.min(0.05, (t - last) / 1000) : 1 / 60
    last = t
    if (!paused.peek() && !hidden.peek() && !over.peek() && !loading.peek())
      if (!opts.catchErrors) step(dt)
      else
        try {
          step(dt)
        } catch (e) {
          reportError(e)
        }
    if (opts.flushInFrame) flush()
    stepLog.push({ frame, t, score: score.peek() })
    opts.onFrame?.(frame, api)
    if (opts.order === 'register-last') rafId = requestAnimationFrame(tick)
  }

  // ---- AI: BFS on a coarse grid for each ufo, in loop() between frames; results written to the ufo's velocity
  let ai: Loop | undefined
  let aiSteps = 0
  let aiWritesToRemoved = 0
  function startAI() {
    let i = 0
    ai = loop(
      () => {
        if (disposed) return false
        const ufos = untracked(() => entities.value).filter((e) => e.kind === 'ufo')
        if (!ufos.length) return true
        const u = ufos[i++ % ufos.length]!
        const cols = W / GRID, rows = H / GRID
        const blocked = new Uint8Array(cols * rows)
        for (const e of entities.peek()) if (e.kind === 'rock') blocked[((e.y.peek() / GRID) | 0) * cols + ((e.x.peek() / GRID) | 0)] = 1
        const start = ((u.y.peek() / GRID) | 0) * cols + ((u.x.peek() / GRID) | 0)
        const goal = ((ship.y.peek() / GRID) | 0) * cols + ((ship.x.peek() / GRID) | 0)
        const prev = new Int32Array(cols * rows).fill(-1)
        const queue = [start]
        prev[start] = start
        while (queue.length) {
          const c = queue.shift()!
          if (c === goal) break
          for (const n of [c - 1, c + 1, c - cols, c + cols]) if (n >= 0 && n < cols * rows && prev[n] < 0 && !blocked[n]) (prev[n] = c), queue.push(n)
        }
        let c = goal
        while (prev[c] >= 0 && prev[c] !== start && prev[c] !== c) c = prev[c]!
        const dx = (c % cols) - (start % cols), dy = ((c / cols) | 0) - ((start / cols) | 0)
        aiSteps++
        // The ufo may have been removed meanwhile: a stray write must run nothing of it.
        if (u.removed) aiWritesToRemoved++
        batch(() => {
          u.vx.value = dx * 60 + 0.001 * aiSteps
          u.vy.value = dy * 60
        })
        return true
      },
      { budgetMs: 4 },
    )
  }

  // ---- monitor: drop quality under pressure
  let mon: Monitor | undefined
  let pressureEvents = 0
  function startMonitor() {
    mon = monitor({ maxLagMs: 100 })
    mon.on('pressure', () => {
      pressureEvents++
      quality.value = 'low'
    })
    mon.on('relief', () => (quality.value = 'high'))
  }

  // ---- level load with yieldToMain
  let loadYields = 0
  async function loadLevel(n: number, chunk = 50) {
    loading.value = true
    const made: Entity[] = []
    const total = (opts.rocks ?? 300) + n * 4
    for (let i = 0; i < total; i++) {
      made.push(randomRock())
      if (i % chunk === chunk - 1) {
        loadYields++
        await yieldToMain()
        if (disposed) return made.forEach(remove)
      }
    }
    for (let i = 0; i < n; i++) made.push(spawn('ufo', rand() * W, rand() * H, 0, 0))
    batch(() => {
      for (const e of entities.peek()) remove(e)
      entities.value = made
      loading.value = false
    })
  }

  function start() {
    rafId = requestAnimationFrame(tick)
    if (opts.ai) startAI()
    if (opts.monitor) startMonitor()
  }

  function dispose() {
    disposed = true
    cancelAnimationFrame(rafId)
    ai?.stop()
    mon?.stop()
    window.removeEventListener('keydown', onKey)
    window.removeEventListener('keyup', onKey)
    document.removeEventListener('visibilitychange', onVisibility)
    for (const e of entities.peek()) remove(e)
    for (const l of layers) l()
    for (const b of hud) b.dispose()
  }

  const api = {
    $,
    root,
    entities,
    ship,
    kills,
    deaths,
    paused,
    hidden,
    quality,
    drawn,
    drawCalls,
    loading,
    ticks,
    level,
    score,
    lives,
    over,
    rockCount,
    state,
    keys,
    spawn,
    remove,
    step,
    start,
    dispose,
    loadLevel,
    curseNext: () => (cursedNext = true),
    setSelfWriting: (on: boolean) => (selfWriting = on),
    get frame() {
      return frame
    },
    get steps() {
      return steps
    },
    get aiSteps() {
      return aiSteps
    },
    get aiWritesToRemoved() {
      return aiWritesToRemoved
    },
    get ai() {
      return ai
    },
    get monitor() {
      return mon
    },
    get pressureEvents() {
      return pressureEvents
    },
    get loadYields() {
      return loadYields
    },
    stepLog,
  }
  return api
}

export { subscribers as subsOf } from '../dom.ts'
