import {
  brandContext,
  brandPreview,
  createBrand,
  deleteLogo,
  deleteMusic,
  getBrand,
  listBrands,
  updateBrand,
  uploadAvatar,
  uploadLogo,
  uploadMusic,
} from "./brands";
import { backendConnectCheck } from "./health";
import { createApiKey, listApiKeys, revokeApiKey } from "./keys";
import type { Operation } from "./operation";
import {
  deleteMediaImage,
  generateMediaImage,
  generatePost,
  generatePostStream,
  getPost,
  listPosts,
  updatePost,
  uploadMediaImage,
} from "./posts";
import {
  cancelPublication,
  connectChannel,
  createPublication,
  disconnectChannel,
  getPublication,
  listChannels,
  listPublications,
} from "./publishing";
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
  uploadLogo,
  deleteLogo,
  uploadMusic,
  deleteMusic,
  brandPreview,
  generatePost,
  generatePostStream,
  getPost,
  updatePost,
  listPosts,
  generateMediaImage,
  uploadMediaImage,
  deleteMediaImage,
  generateVideo,
  getVideoJobStatus,
  listVideoJobs,
  cancelVideoJob,
  listWebhooks,
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  sendTestWebhook,
  listChannels,
  connectChannel,
  disconnectChannel,
  createPublication,
  listPublications,
  getPublication,
  cancelPublication,
];
