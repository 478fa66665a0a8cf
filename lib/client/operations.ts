import type * as brands from "@/lib/contracts/brands";
import type * as health from "@/lib/contracts/health";
import type * as keys from "@/lib/contracts/keys";
import type { Operation } from "@/lib/contracts/operation";
import type * as posts from "@/lib/contracts/posts";
import { ROUTES } from "@/lib/contracts/routes";
import type * as users from "@/lib/contracts/users";
import type * as video from "@/lib/contracts/video";
import type * as webhooks from "@/lib/contracts/webhooks";

/**
 * An operation as the browser holds it: its id, method and path (the values from lib/contracts/routes),
 * typed by the zod contract through `import type` only, so a page that calls the API loads no schema.
 */
export type ClientOperation<O extends Operation> = Pick<O, "id" | "method" | "path"> & {
  /** Type only: the contract this route belongs to (never set at run time). */
  readonly contract?: O;
};

const typed = <O extends Operation>(route: Pick<O, "id" | "method" | "path">) => route as ClientOperation<O>;

export const backendConnectCheck = typed<typeof health.backendConnectCheck>(ROUTES.backendConnectCheck);
export const signUp = typed<typeof users.signUp>(ROUTES.signUp);
export const listApiKeys = typed<typeof keys.listApiKeys>(ROUTES.listApiKeys);
export const createApiKey = typed<typeof keys.createApiKey>(ROUTES.createApiKey);
export const revokeApiKey = typed<typeof keys.revokeApiKey>(ROUTES.revokeApiKey);
export const listBrands = typed<typeof brands.listBrands>(ROUTES.listBrands);
export const createBrand = typed<typeof brands.createBrand>(ROUTES.createBrand);
export const getBrand = typed<typeof brands.getBrand>(ROUTES.getBrand);
export const updateBrand = typed<typeof brands.updateBrand>(ROUTES.updateBrand);
export const brandContext = typed<typeof brands.brandContext>(ROUTES.brandContext);
export const uploadAvatar = typed<typeof brands.uploadAvatar>(ROUTES.uploadAvatar);
export const generatePost = typed<typeof posts.generatePost>(ROUTES.generatePost);
export const generatePostStream = typed<typeof posts.generatePostStream>(ROUTES.generatePostStream);
export const getPost = typed<typeof posts.getPost>(ROUTES.getPost);
export const updatePost = typed<typeof posts.updatePost>(ROUTES.updatePost);
export const listPosts = typed<typeof posts.listPosts>(ROUTES.listPosts);
export const generateVideo = typed<typeof video.generateVideo>(ROUTES.generateVideo);
export const getVideoJobStatus = typed<typeof video.getVideoJobStatus>(ROUTES.getVideoJobStatus);
export const listVideoJobs = typed<typeof video.listVideoJobs>(ROUTES.listVideoJobs);
export const cancelVideoJob = typed<typeof video.cancelVideoJob>(ROUTES.cancelVideoJob);
export const listWebhooks = typed<typeof webhooks.listWebhooks>(ROUTES.listWebhooks);
export const createWebhook = typed<typeof webhooks.createWebhook>(ROUTES.createWebhook);
export const deleteWebhook = typed<typeof webhooks.deleteWebhook>(ROUTES.deleteWebhook);
export const listWebhookDeliveries = typed<typeof webhooks.listWebhookDeliveries>(
  ROUTES.listWebhookDeliveries,
);
export const sendTestWebhook = typed<typeof webhooks.sendTestWebhook>(ROUTES.sendTestWebhook);
