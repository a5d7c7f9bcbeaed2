// Loaded with `node --import` before the conformance CLI: its bundle imports `globSync` from `fs`,
// which Node 20 lacks (added in Node 22). The CLI uses it only for `tier-check`, which the tests
// never run, so the hook below gives that one bundle an `fs` with a `globSync` that throws.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
