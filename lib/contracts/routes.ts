/**
 * Where each operation lives: its docs card id, method and path. The zod contracts (lib/contracts/*.ts)
 * spread these into their operations, and the browser client calls by them, so a page never loads a
 * schema just to know a URL. No imports at run time: this module must stay free of zod.
 */
import type { HttpMethod } from "./operation";

export type Route = { readonly id: string; readonly method: HttpMethod; readonly path: string };

const route = <const R extends Route>(r: R) => r;

export const ROUTES = {
  backendConnectCheck: route({ id: "backend-connect-check", method: "GET", path: "/api/health" }),
  signUp: route({ id: "sign-up", method: "POST", path: "/api/users" }),
  listApiKeys: route({ id: "list-api-keys", method: "GET", path: "/api/keys" }),
  createApiKey: route({ id: "create-api-key", method: "POST", path: "/api/keys" }),
  revokeApiKey: route({ id: "revoke-api-key", method: "DELETE", path: "/api/keys/{keyId}" }),
  listBrands: route({ id: "list-brands", method: "GET", path: "/api/brands" }),
  createBrand: route({ id: "create-brand", method: "POST", path: "/api/brands" }),
  getBrand: route({ id: "get-brand", method: "GET", path: "/api/brands/{brandId}" }),
  updateBrand: route({ id: "update-brand", method: "PATCH", path: "/api/brands/{brandId}" }),
  brandContext: route({ id: "brand-context", method: "GET", path: "/api/brands/{brandId}/context" }),
  uploadAvatar: route({ id: "upload-avatar", method: "POST", path: "/api/brands/{brandId}/avatar" }),
  generatePost: route({ id: "generate-post", method: "POST", path: "/api/content/create" }),
  generatePostStream: route({
    id: "generate-post-stream",
    method: "POST",
    path: "/api/content/create/stream",
  }),
  getPost: route({ id: "get-post", method: "GET", path: "/api/posts/{postId}" }),
  updatePost: route({ id: "update-post", method: "PATCH", path: "/api/posts/{postId}" }),
  listPosts: route({ id: "list-posts", method: "GET", path: "/api/posts" }),
  generateVideo: route({ id: "generate-video", method: "POST", path: "/api/video/jobs" }),
  getVideoJobStatus: route({ id: "video-job-status", method: "GET", path: "/api/video/jobs/{jobId}" }),
  listVideoJobs: route({ id: "list-video-jobs", method: "GET", path: "/api/video/jobs" }),
  cancelVideoJob: route({ id: "cancel-video-job", method: "DELETE", path: "/api/video/jobs/{jobId}" }),
  listWebhooks: route({ id: "list-webhooks", method: "GET", path: "/api/webhooks" }),
  createWebhook: route({ id: "create-webhook", method: "POST", path: "/api/webhooks" }),
  deleteWebhook: route({ id: "delete-webhook", method: "DELETE", path: "/api/webhooks/{webhookId}" }),
  listWebhookDeliveries: route({
    id: "list-webhook-deliveries",
    method: "GET",
    path: "/api/webhooks/{webhookId}/deliveries",
  }),
  sendTestWebhook: route({ id: "send-test-webhook", method: "POST", path: "/api/webhooks/{webhookId}/test" }),
} as const;

export type RouteName = keyof typeof ROUTES;
