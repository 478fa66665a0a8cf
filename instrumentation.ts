export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("./lib/server/start-server");
  const { startWorkers } = await import("./worker/workers");
  await startServer({ startWorkers });
}
