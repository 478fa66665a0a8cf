// A small program a frontend developer would write with the generated types and openapi-fetch. The test
// type-checks it with `tsc --strict` and runs it against a live server. Relative imports only, so it
// compiles on its own.
import createClient from "openapi-fetch";
import type { components, paths } from "../../types/api";

type VideoJob = components["schemas"]["VideoJob"];
type ApiError = components["schemas"]["Error"];
type Post = components["schemas"]["Post"];

export type FlowLog = { step: string; status: number }[];

/** A typed error: `details` is known from `code` (here: how many videos are left this month). */
export function describeError(error: ApiError): string {
  if (error.code === "quota_exceeded") return `quota used: ${error.details?.used}/${error.details?.limit}`;
  if (error.code === "invalid_request") return (error.details ?? []).map((issue) => issue.path).join(", ");
  return error.message;
}

const fail = (step: string, status: number, error: unknown): never => {
  const body = error as { error?: ApiError } | undefined;
  throw new Error(
    `${step}: HTTP ${status} ${body?.error ? describeError(body.error) : JSON.stringify(error)}`,
  );
};

/**
 * sign-up → sign-in (next-auth, outside the OpenAPI document) → API key → brand → post → video → poll the
 * status with If-None-Match (a 304 keeps the last job) → list.
 */
export async function runFlow(
  baseUrl: string,
  signIn: (email: string, password: string) => Promise<string>,
  timeoutMs = 240_000,
) {
  const log: FlowLog = [];
  const note = (step: string, response: Response) => log.push({ step, status: response.status });
  const anonymous = createClient<paths>({ baseUrl });

  const email = `typed-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const password = "typed-client-password";
  const signUp = await anonymous.POST("/api/users", { body: { email, password, name: "Typed Client" } });
  note("sign-up", signUp.response);
  if (!signUp.data) return fail("sign-up", signUp.response.status, signUp.error);

  const session = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${await signIn(email, password)}` },
  });
  const key = await session.POST("/api/keys", { body: { name: "typed client" } });
  note("key", key.response);
  if (!key.data) return fail("key", key.response.status, key.error);

  // From here on, the API key is the credential, as in an integrator's script.
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key.data.key}` } });
  const brand = await client.POST("/api/brands", {
    body: { name: "Typed Client Roasters", tone: "warm and clear", voice: "Short, friendly sentences." },
  });
  note("brand", brand.response);
  if (!brand.data) return fail("brand", brand.response.status, brand.error);
  const brandId = brand.data.brandId;

  const post = await client.POST("/api/content/create", {
    body: {
      brandId,
      channel: "linkedin",
      topic: "Our new cold brew arrives in every store this week",
      goal: "announcement",
    },
  });
  note("post", post.response);
  if (!post.data) return fail("post", post.response.status, post.error);
  // The JSON operation's 201 is exactly a Post (the stream is its own operation): no narrowing, no cast.
  const saved: Post = post.data;

  const video = await client.POST("/api/video/jobs", {
    body: { brandId, postId: saved.postId, mode: "regular" },
  });
  note("video", video.response);
  if (!video.data) return fail("video", video.response.status, video.error);
  const jobId = video.data.jobId;

  let job: VideoJob | undefined;
  let etag: string | undefined;
  let notModified = 0;
  const deadline = Date.now() + timeoutMs;
  while (!job || !["succeeded", "failed", "canceled"].includes(job.status)) {
    if (Date.now() > deadline) throw new Error(`poll: job still ${job?.status} after ${timeoutMs} ms`);
    const status = await client.GET("/api/video/jobs/{jobId}", {
      params: { path: { jobId }, header: etag ? { "If-None-Match": etag } : {} },
    });
    note("poll", status.response);
    if (status.response.status === 304) {
      notModified += 1; // Nothing changed: keep the job we have.
    } else if (status.data) {
      job = status.data;
      etag = status.response.headers.get("ETag") ?? undefined;
    } else {
      fail("poll", status.response.status, status.error);
    }
    const wait = Number(status.response.headers.get("Retry-After") ?? 1);
    if (!job || !["succeeded", "failed", "canceled"].includes(job.status)) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 2) * 1000));
    }
  }

  // Once finished nothing changes: the same If-None-Match answers 304, and the client keeps its job.
  const again = await client.GET("/api/video/jobs/{jobId}", {
    params: { path: { jobId }, header: { "If-None-Match": etag ?? "" } },
  });
  note("poll", again.response);
  const finalStatus = again.response.status;
  if (finalStatus === 304) notModified += 1;
  else if (again.data) job = again.data;

  // A finished job cannot be canceled: 409 job_not_cancelable, its details typed from the code.
  const cancel = await client.DELETE("/api/video/jobs/{jobId}", { params: { path: { jobId } } });
  note("cancel", cancel.response);
  const cancelError = cancel.error?.error;
  const notCancelable =
    cancelError?.code === "job_not_cancelable" ? { status: cancelError.details?.status } : undefined;

  const list = await client.GET("/api/video/jobs", { params: { query: { brandId } } });
  note("list", list.response);
  if (!list.data) return fail("list", list.response.status, list.error);
  return {
    log,
    job,
    etag,
    notModified,
    finalStatus,
    listed: list.data.items.map((item) => item.jobId),
    cancel: { status: cancel.response.status, body: cancel.error, notCancelable },
    post: saved,
    jobId,
  };
}

type CreateBrand = components["schemas"]["CreateBrandRequest"];
type CreateVideo = paths["/api/video/jobs"]["post"]["requestBody"]["content"]["application/json"];

// Compile-time checks: the generated types reject what the server rejects.
// @ts-expect-error name is the one required field of a new brand.
export const noName: CreateBrand = { tone: "no name" };
// @ts-expect-error mode must be avatar or regular.
export const badMode: CreateVideo = { brandId: "brd_x", script: "x".repeat(30), mode: "cartoon" };
// Every other create-brand field is optional: the server fills the defaults.
export const onlyName: CreateBrand = { name: "Only a name" };
