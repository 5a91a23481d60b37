import { z } from "zod";

// The strict CSP (issue 17: script-src without 'unsafe-eval') refuses `new Function`, and zod 4 probes
// for it when it defines an object schema, to compile a faster parser. The refusal is caught and zod
// falls back, but the browser still reports a CSP violation on every page that loads a schema. In the
// browser zod is told not to try; the server keeps the compiled parsers. Imported first by root.tsx,
// so it runs before any route module defines a schema.
if (typeof document !== "undefined") z.config({ jitless: true });
