import path from "node:path";
import { fileURLToPath } from "node:url";

// The bench's baseline: the smallest Next app (one page, one constant-JSON route), built and started by
// `npm run bench` next to Brand Studio so both are measured in the same run on the same machine.
const here = path.dirname(fileURLToPath(import.meta.url));

export default { turbopack: { root: path.resolve(here, "..", "..") } };
