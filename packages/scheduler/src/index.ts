export { microtask } from './microtask.ts'
