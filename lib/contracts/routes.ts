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
  uploadLogo: route({ id: "upload-logo", method: "POST", path: "/api/brands/{brandId}/logo" }),
  deleteLogo: route({ id: "delete-logo", method: "DELETE", path: "/api/brands/{brandId}/logo" }),
  uploadMusic: route({ id: "upload-music", method: "POST", path: "/api/brands/{brandId}/music" }),
  deleteMusic: route({ id: "delete-music", method: "DELETE", path: "/api/brands/{brandId}/music" }),
  brandPreview: route({ id: "brand-preview-frame", method: "GET", path: "/api/brands/{brandId}/preview" }),
  generatePost: route({ id: "generate-post", method: "POST", path: "/api/content/create" }),
  generatePostStream: route({
    id: "generate-post-stream",
    method: "POST",
    path: "/api/content/create/stream",
  }),
  getPost: route({ id: "get-post", method: "GET", path: "/api/posts/{postId}" }),
  updatePost: route({ id: "update-post", method: "PATCH", path: "/api/posts/{postId}" }),
  listPosts: route({ id: "list-posts", method: "GET", path: "/api/posts" }),
  generateMediaImage: route({
    id: "generate-media-image",
    method: "POST",
    path: "/api/posts/{postId}/media/{index}/image/generate",
  }),
  uploadMediaImage: route({
    id: "upload-media-image",
    method: "POST",
    path: "/api/posts/{postId}/media/{index}/image",
  }),
  deleteMediaImage: route({
    id: "delete-media-image",
    method: "DELETE",
    path: "/api/posts/{postId}/media/{index}/image",
  }),
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
  listChannels: route({ id: "list-channels", method: "GET", path: "/api/channels" }),
  connectChannel: route({ id: "connect-channel", method: "POST", path: "/api/channels" }),
  updateChannel: route({ id: "update-channel", method: "PATCH", path: "/api/channels/{channelId}" }),
  getChannelSchedule: route({
    id: "get-channel-schedule",
    method: "GET",
    path: "/api/channels/{channelId}/schedule",
  }),
  replaceChannelSchedule: route({
    id: "replace-channel-schedule",
    method: "PATCH",
    path: "/api/channels/{channelId}/schedule",
  }),
  disconnectChannel: route({ id: "disconnect-channel", method: "DELETE", path: "/api/channels/{channelId}" }),
  createPublication: route({
    id: "create-publication",
    method: "POST",
    path: "/api/posts/{postId}/publications",
  }),
  publishAllLanguages: route({
    id: "publish-all-languages",
    method: "POST",
    path: "/api/posts/{postId}/publications/all-languages",
  }),
  listPublications: route({ id: "list-publications", method: "GET", path: "/api/publications" }),
  getPostMetrics: route({ id: "get-post-metrics", method: "GET", path: "/api/posts/{postId}/metrics" }),
  refreshPostMetrics: route({
    id: "refresh-post-metrics",
    method: "POST",
    path: "/api/posts/{postId}/metrics/refresh",
  }),
  getBrandAnalytics: route({
    id: "get-brand-analytics",
    method: "GET",
    path: "/api/brands/{brandId}/analytics",
  }),
  getBrandInsights: route({
    id: "get-brand-insights",
    method: "GET",
    path: "/api/brands/{brandId}/insights",
  }),
  getPublication: route({ id: "get-publication", method: "GET", path: "/api/publications/{publicationId}" }),
  reschedulePublication: route({
    id: "reschedule-publication",
    method: "PATCH",
    path: "/api/publications/{publicationId}",
  }),
  cancelPublication: route({
    id: "cancel-publication",
    method: "DELETE",
    path: "/api/publications/{publicationId}",
  }),
  markPublicationPosted: route({
    id: "mark-publication-posted",
    method: "POST",
    path: "/api/publications/{publicationId}/posted",
  }),
  sendPublicationAgain: route({
    id: "send-publication-again",
    method: "POST",
    path: "/api/publications/{publicationId}/send-again",
  }),
  listMembers: route({ id: "list-members", method: "GET", path: "/api/brands/{brandId}/members" }),
  updateMember: route({
    id: "update-member",
    method: "PATCH",
    path: "/api/brands/{brandId}/members/{userId}",
  }),
  removeMember: route({
    id: "remove-member",
    method: "DELETE",
    path: "/api/brands/{brandId}/members/{userId}",
  }),
  listInvitations: route({
    id: "list-invitations",
    method: "GET",
    path: "/api/brands/{brandId}/invitations",
  }),
  createInvitation: route({
    id: "create-invitation",
    method: "POST",
    path: "/api/brands/{brandId}/invitations",
  }),
  resendInvitation: route({
    id: "resend-invitation",
    method: "POST",
    path: "/api/brands/{brandId}/invitations/{invitationId}/resend",
  }),
  revokeInvitation: route({
    id: "revoke-invitation",
    method: "DELETE",
    path: "/api/brands/{brandId}/invitations/{invitationId}",
  }),
  getInvitation: route({ id: "get-invitation", method: "GET", path: "/api/invitations/{token}" }),
  acceptInvitation: route({
    id: "accept-invitation",
    method: "POST",
    path: "/api/invitations/{token}/accept",
  }),
  deleteAccount: route({ id: "delete-account", method: "DELETE", path: "/api/users/me" }),
  submitPost: route({ id: "submit-post", method: "POST", path: "/api/posts/{postId}/submit" }),
  reviewPost: route({ id: "review-post", method: "POST", path: "/api/posts/{postId}/review" }),
  listReviewQueue: route({ id: "list-review-queue", method: "GET", path: "/api/reviews" }),
  listActivity: route({ id: "list-activity", method: "GET", path: "/api/brands/{brandId}/activity" }),
} as const;

export type RouteName = keyof typeof ROUTES;
