// Child process of computed.test.ts ("a cycle of links"): prints "done" unless dropping a run's links loops for ever.
// Errors, retries and cycle cut-offs can leave the links of three watched computeds in a cycle (c0 -> c2 -> c1 -> c0);
// disposing the last reader of c2 then walks round it. Usage: node purge-cycle.mjs <url of the built index.js>
const { Window } = await import('happy-dom')
globalThis.document = new Window().document
const { Signal, computed, effect } = await import(process.argv[2])
globalThis.reportError = () => {}
const s = new Signal(0)
const runs = [0, 0, 0]
const c0 = computed(() => (runs[0]++ % 3 == 0 ? s.value + c2.value : 0))
const c1 = computed(() => {
  const n = runs[1]++ % 3
  // Thrown before reading anything: retried at the next check.
  if (n == 0) throw new Error('c1')
  return n == 1 ? c0.value : 0
})
const c2 = computed(() => (runs[2]++ % 3 == 0 ? c1.value : 0))
let n1 = 0
let n2 = 0
for (const fn of [() => void (n1++ % 4 == 0 && c0.value), () => void (n2++ % 4 == 0 && c1.value)])
  try {
    effect(fn)
  } catch {}
const binding = c2.bind(document.createElement('p'))
s.value = 3
binding.dispose()
c2.bind(document.createElement('p'))
console.log('done')
