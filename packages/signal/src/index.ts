export { Signal, type Binding } from './signal.ts'
export { flush } from './render.ts'
