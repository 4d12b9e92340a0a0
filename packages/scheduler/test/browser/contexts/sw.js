// A module service worker: the shipped dist files and the probe, run on a message, answered through its port.
import * as EddyScheduler from '../../../dist/index.js'
import * as EddySignal from '../../../../signal/dist/index.js'
import { probe } from './probe.js'

self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()))
self.addEventListener('message', (e) => { e.waitUntil(probe(EddyScheduler, EddySignal).then((r) => e.ports[0].postMessage(r))) })
