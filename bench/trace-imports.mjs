// Loaded with `node --import` by bench/updates.mjs: registers a resolve hook that notes on stderr every import of
// ts-morph, so that the bench can tell whether a run loaded it.
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(
    'export async function resolve(s, c, next) { if (s === "ts-morph") process.stderr.write("[trace] ts-morph loaded\\n"); return next(s, c); }',
  )}`,
  import.meta.url,
);
