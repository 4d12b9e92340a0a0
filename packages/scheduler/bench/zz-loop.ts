import { loopRun } from './cases.ts'
const cpu = async (f: () => Promise<any>) => { const c0 = process.cpuUsage(); const t0 = performance.now(); const r = await f(); const c = process.cpuUsage(c0); return { r, wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 } }
const med = (x: number[]) => [...x].sort((p, q) => p - q)[x.length >> 1]
const a: number[] = [], b: number[] = [], wa: number[] = []
for (let r = 0; r < 9; r++) {
  const x = await cpu(() => loopRun('loop', 1e6)); a.push(x.r.nsPerIteration * x.cpu / x.wall); wa.push(x.r.worstTimerDelayMs)
  const y = await cpu(() => loopRun('microtask', 1e6)); b.push(y.r.nsPerIteration * y.cpu / y.wall)
}
console.log('loop ns (cpu-normalized)', med(a).toFixed(1), 'microtask', med(b).toFixed(1), 'ratio', (med(a) / med(b)).toFixed(2), 'worst timer', med(wa).toFixed(1))
