import type { api } from "./http";
import { waitFor } from "./video-media";

type Call = (path: string, init?: Parameters<typeof api>[1]) => ReturnType<typeof api>;

/** Reads a publication until it is published or failed; a timeout names the last answer it saw. */
export async function settledPublication(call: Call, publicationId: string, timeoutMs = 40_000) {
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON.
  let last: any = {};
  await waitFor(
    async () => {
      last = (await call(`/api/publications/${publicationId}`)).body;
      return last.status === "published" || last.status === "failed";
    },
    { timeoutMs, what: `publication ${publicationId}` },
  ).catch((error: Error) => {
    throw new Error(`${error.message} Last: ${JSON.stringify(last)}`);
  });
  return last;
}
