import type * as activity from "@/lib/contracts/activity";
import type * as analytics from "@/lib/contracts/analytics";
import type * as brands from "@/lib/contracts/brands";
import type * as health from "@/lib/contracts/health";
import type * as insights from "@/lib/contracts/insights";
import type * as keys from "@/lib/contracts/keys";
import type { Operation } from "@/lib/contracts/operation";
import type * as postGroups from "@/lib/contracts/post-groups";
import type * as postingSchedule from "@/lib/contracts/posting-schedule";
import type * as posts from "@/lib/contracts/posts";
import type * as publishing from "@/lib/contracts/publishing";
import type * as reviews from "@/lib/contracts/reviews";
import { ROUTES } from "@/lib/contracts/routes";
import type * as teams from "@/lib/contracts/teams";
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
export const uploadLogo = typed<typeof brands.uploadLogo>(ROUTES.uploadLogo);
export const deleteLogo = typed<typeof brands.deleteLogo>(ROUTES.deleteLogo);
export const uploadMusic = typed<typeof brands.uploadMusic>(ROUTES.uploadMusic);
export const deleteMusic = typed<typeof brands.deleteMusic>(ROUTES.deleteMusic);
export const brandPreview = typed<typeof brands.brandPreview>(ROUTES.brandPreview);
export const generatePost = typed<typeof posts.generatePost>(ROUTES.generatePost);
export const generatePostStream = typed<typeof posts.generatePostStream>(ROUTES.generatePostStream);
export const getPost = typed<typeof posts.getPost>(ROUTES.getPost);
export const updatePost = typed<typeof posts.updatePost>(ROUTES.updatePost);
export const listPosts = typed<typeof posts.listPosts>(ROUTES.listPosts);
export const generateMediaImage = typed<typeof posts.generateMediaImage>(ROUTES.generateMediaImage);
export const uploadMediaImage = typed<typeof posts.uploadMediaImage>(ROUTES.uploadMediaImage);
export const deleteMediaImage = typed<typeof posts.deleteMediaImage>(ROUTES.deleteMediaImage);
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
export const listChannels = typed<typeof publishing.listChannels>(ROUTES.listChannels);
export const connectChannel = typed<typeof publishing.connectChannel>(ROUTES.connectChannel);
export const updateChannel = typed<typeof publishing.updateChannel>(ROUTES.updateChannel);
export const getChannelSchedule = typed<typeof postingSchedule.getChannelSchedule>(ROUTES.getChannelSchedule);
export const replaceChannelSchedule = typed<typeof postingSchedule.replaceChannelSchedule>(
  ROUTES.replaceChannelSchedule,
);
export const disconnectChannel = typed<typeof publishing.disconnectChannel>(ROUTES.disconnectChannel);
export const createPublication = typed<typeof publishing.createPublication>(ROUTES.createPublication);
export const publishAllLanguages = typed<typeof postGroups.publishAllLanguages>(ROUTES.publishAllLanguages);
export const listPublications = typed<typeof publishing.listPublications>(ROUTES.listPublications);
export const getPublication = typed<typeof publishing.getPublication>(ROUTES.getPublication);
export const reschedulePublication = typed<typeof publishing.reschedulePublication>(
  ROUTES.reschedulePublication,
);
export const cancelPublication = typed<typeof publishing.cancelPublication>(ROUTES.cancelPublication);
export const markPublicationPosted = typed<typeof publishing.markPublicationPosted>(
  ROUTES.markPublicationPosted,
);
export const sendPublicationAgain = typed<typeof publishing.sendPublicationAgain>(
  ROUTES.sendPublicationAgain,
);
export const listMembers = typed<typeof teams.listMembers>(ROUTES.listMembers);
export const updateMember = typed<typeof teams.updateMember>(ROUTES.updateMember);
export const removeMember = typed<typeof teams.removeMember>(ROUTES.removeMember);
export const listInvitations = typed<typeof teams.listInvitations>(ROUTES.listInvitations);
export const createInvitation = typed<typeof teams.createInvitation>(ROUTES.createInvitation);
export const resendInvitation = typed<typeof teams.resendInvitation>(ROUTES.resendInvitation);
export const revokeInvitation = typed<typeof teams.revokeInvitation>(ROUTES.revokeInvitation);
export const getInvitation = typed<typeof teams.getInvitation>(ROUTES.getInvitation);
export const acceptInvitation = typed<typeof teams.acceptInvitation>(ROUTES.acceptInvitation);
export const deleteAccount = typed<typeof users.deleteAccount>(ROUTES.deleteAccount);
export const submitPost = typed<typeof reviews.submitPost>(ROUTES.submitPost);
export const reviewPost = typed<typeof reviews.reviewPost>(ROUTES.reviewPost);
export const listReviewQueue = typed<typeof reviews.listReviewQueue>(ROUTES.listReviewQueue);
export const listActivity = typed<typeof activity.listActivity>(ROUTES.listActivity);
export const getPostMetrics = typed<typeof analytics.getPostMetrics>(ROUTES.getPostMetrics);
export const refreshPostMetrics = typed<typeof analytics.refreshPostMetrics>(ROUTES.refreshPostMetrics);
export const getBrandAnalytics = typed<typeof analytics.getBrandAnalytics>(ROUTES.getBrandAnalytics);
export const getBrandInsights = typed<typeof insights.getBrandInsights>(ROUTES.getBrandInsights);
