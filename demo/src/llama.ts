/**
 * The llama: an SVG drawing posed from the MAIN thread on every requestAnimationFrame. A CSS animation would run
 * on the compositor and keep moving while the main thread is blocked; this one stops exactly when the thread
 * stops, which is the point of the page.
 *
 * The drawing itself is imperative (like painting a canvas); what the page shows about it (frames, fps) and what
 * the loops measure (the longest gap between two frames) go through signals and a small probe API.
 */
import { Signal } from '@eddy/signal'

/** Frames drawn since load. */
export const frameCount = new Signal(0)
/** Frames drawn during the last second. */
export const fps = new Signal(0)
/** The "Pause the llama" toggle: the drawing stands still, the frames still count (WCAG 2.2.2: it moves for ever). */
export const paused = new Signal(false)

/** Longest time a frame may advance the walk: after a freeze the llama resumes where it stopped, it does not jump. */
const MAX_STEP_MS = 50
const WALK_SPEED = 52 // px/s in viewBox units
const WALK_MIN_X = 96
const WALK_MAX_X = 384
const GROUND_Y = 150
/** Clouds re-enter on the left after this many viewBox units (the scene is 480 wide, a cloud ~60). */
const CLOUD_WRAP = 600

// Read at each frame: the setting can change while the page is open.
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)')

let frames = 0
let lastStamp = -1
/** When the previous frame callback really ran (`performance.now()`), for the frame gaps. */
let lastRan = -1
/** Timestamps of the frames of the last second, oldest first. */
const recent: number[] = []
/** Longest gap between two consecutive frames since the last `startGapWindow()`. */
let windowMaxGap = 0
/** Whether the tab was hidden at some point since the last `startGapWindow()`: it draws no frames then. */
let windowHidden = false
document.addEventListener('visibilitychange', () => void (document.hidden && (windowHidden = true)))

// Pose state.
let x = 200
let dir = 1
let stride = 0 // radians of the leg cycle
let drift = 0
let sunAngle = 0

/** Resets the longest-frame-gap window; read it with `readGapWindow()`. */
export function startGapWindow(): void {
  windowMaxGap = 0
  windowHidden = document.hidden
}

/**
 * Resolves with the longest gap between two frames since `startGapWindow()`, in ms, after two more frames:
 * a gap is known only when the frame that ends it runs, and the end of a blocking run is not a frame. NaN if the
 * tab was hidden meanwhile: a hidden tab draws no frames, and its gap says nothing of the run.
 */
export async function readGapWindow(): Promise<number> {
  await nextFrame()
  await nextFrame()
  return windowHidden || document.hidden ? NaN : windowMaxGap
}

/** Resolves at the next animation frame (or after 100 ms if frames are throttled, e.g. in a hidden tab). */
export function nextFrame(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100)
    requestAnimationFrame(() => {
      clearTimeout(timer)
      resolve()
    })
  })
}

/** Starts the animation; call once with the page's SVG. */
export function startLlama(svg: SVGSVGElement): void {
  const $ = (id: string) => {
    const el = svg.querySelector<SVGGraphicsElement>(`#${id}`)
    if (!el) throw new Error(`llama: #${id} is missing from the drawing`)
    return el
  }
  const body = $('llama-body')
  const head = $('llama-head')
  const shadow = $('llama-shadow')
  const sunRays = $('llama-sun').querySelector('.rays')!
  // Clouds drift right and wrap around one at a time: [element, start x, y].
  const clouds = [...$('llama-clouds').children].map((el): [Element, number, number] => {
    const [cx, cy] = (el.getAttribute('transform') ?? '').match(/-?[\d.]+/g)!.map(Number)
    return [el, cx!, cy!]
  })
  // Each leg swings about its hip: [element, hip x, hip y, phase offset].
  const legs: Array<[Element, number, number, number]> = [
    [$('leg-front-near'), 42, 12, 0],
    [$('leg-back-far'), -28, 12, 0],
    [$('leg-front-far'), 32, 12, Math.PI],
    [$('leg-back-near'), -18, 12, Math.PI],
  ]

  const draw = (stamp: number) => {
    const dt = lastStamp < 0 ? 16 : Math.min(stamp - lastStamp, MAX_STEP_MS)
    // Reduced motion: the llama still walks (its stalls are the point of the page), at half speed; the sky stays.
    const still = paused.peek()
    const reduce = reducedMotion.matches || still
    const speed = still ? 0 : reduce ? WALK_SPEED / 2 : WALK_SPEED
    // The gap is measured on the clock, not on the rAF timestamps: the first frame after a block can carry a
    // timestamp from before the block ended (its frame's begin time), so a 500 ms loop read as a 483 ms gap.
    const ran = performance.now()
    if (lastRan >= 0 && ran - lastRan > windowMaxGap) windowMaxGap = ran - lastRan
    lastRan = ran
    lastStamp = stamp

    // Walk back and forth; turn around at the edges of the meadow.
    x += (dir * speed * dt) / 1000
    if (x > WALK_MAX_X) (x = WALK_MAX_X), (dir = -1)
    else if (x < WALK_MIN_X) (x = WALK_MIN_X), (dir = 1)
    stride += (speed * dt) / 1000 / 9
    const bob = -Math.abs(Math.sin(stride)) * 3
    body.setAttribute('transform', `translate(${x.toFixed(1)} ${(GROUND_Y + bob).toFixed(2)}) scale(${dir} 1)`)
    shadow.setAttribute('transform', `translate(0 ${(-bob).toFixed(2)})`)
    head.setAttribute('transform', `rotate(${(Math.sin(stride * 2) * 3).toFixed(2)} 42 -84)`)
    for (const [leg, hx, hy, offset] of legs) {
      leg.setAttribute('transform', `rotate(${(Math.sin(stride + offset) * 24).toFixed(2)} ${hx} ${hy})`)
    }
    sunAngle = (sunAngle + (reduce ? 0 : dt * 0.01)) % 360
    sunRays.setAttribute('transform', `rotate(${sunAngle.toFixed(2)} 408 52)`)
    drift = (drift + (reduce ? 0 : dt * 0.008)) % CLOUD_WRAP
    for (const [cloud, cx, cy] of clouds) {
      cloud.setAttribute('transform', `translate(${(((cx + drift + 60) % CLOUD_WRAP) - 60).toFixed(1)} ${cy})`)
    }

    frames++
    recent.push(stamp)
    while (recent[0]! < stamp - 1000) recent.shift()
    frameCount.value = frames
    // Frames a second are the intervals between them: 61 stamps 16.6 ms apart are 60 frames in a second, not 61.
    fps.value = recent.length - 1
    requestAnimationFrame(draw)
  }
  requestAnimationFrame(draw)
}
