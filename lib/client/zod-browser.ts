import { z } from "zod";

// The app's CSP has no 'unsafe-eval'. zod's JIT probes `new Function` on the first object parse, and the
// browser reports that probe as a CSP violation even though zod catches it. In the browser, zod parses
// without the JIT (the server keeps it: this module only changes anything where `window` exists).
if (typeof window !== "undefined") z.config({ jitless: true });
