// Loaded by frame.html under its CSP (script-src 'self': a same-origin module). It loads the packages' built dist
// (as shipped), records every CSP violation and every error reported in this window, and tells the parent it is
// ready. The parent drives eddy through window.eddy / window.sched, on this document's nodes.
import * as eddy from '/packages/signal/dist/index.js'
import * as sched from '/packages/scheduler/dist/index.js'

const violations = []
const errors = []
document.addEventListener('securitypolicyviolation', (e) => {
  violations.push({
    directive: e.effectiveDirective,
    blockedURI: e.blockedURI,
    sample: e.sample,
    sourceFile: e.sourceFile,
    line: e.lineNumber,
    disposition: e.disposition,
  })
})
addEventListener('error', (e) => { errors.push(e.error); e.preventDefault() })
addEventListener('unhandledrejection', (e) => { errors.push(e.reason); e.preventDefault() })
Object.assign(window, { eddy, sched, violations, errors, loaded: true })
parent.postMessage('csp-frame-ready', '*')
