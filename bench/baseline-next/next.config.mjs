import path from "node:path";
import { fileURLToPath } from "node:url";

// The bench's baseline: the smallest Next app (one page, one constant-JSON route), built and started by
// `npm run bench` next to Brand Studio so both are measured in the same run on the same machine. The bench
// copies it out of the repository to build it; its node_modules is a link to ours, hence the root.
const here = path.dirname(fileURLToPath(import.meta.url));

export default { turbopack: { root: path.parse(here).root } };
