import { brandContext, createBrand, getBrand, listBrands, updateBrand, uploadAvatar } from "./brands";
import { backendConnectCheck } from "./health";
import { createApiKey, listApiKeys, revokeApiKey } from "./keys";
import type { Operation } from "./operation";
import { generatePost, generatePostStream, getPost, listPosts, updatePost } from "./posts";
import { signUp } from "./users";
import { cancelVideoJob, generateVideo, getVideoJobStatus, listVideoJobs } from "./video";
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  sendTestWebhook,
} from "./webhooks";

/** Every operation the API exposes. OpenAPI, the docs cards and the drift tests iterate over this list. */
export const operations: Operation[] = [
  backendConnectCheck,
  signUp,
  listApiKeys,
  createApiKey,
  revokeApiKey,
  listBrands,
  createBrand,
  getBrand,
  updateBrand,
  brandContext,
  uploadAvatar,
  generatePost,
  generatePostStream,
  getPost,
  updatePost,
  listPosts,
  generateVideo,
  getVideoJobStatus,
  listVideoJobs,
  cancelVideoJob,
  listWebhooks,
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  sendTestWebhook,
];
