import { backendConnectCheck } from "./health";
import type { Operation } from "./operation";
import { cancelVideoJob, generateVideo, getVideoJobStatus, listVideoJobs } from "./video";

/** Every operation the API exposes. OpenAPI, the docs cards and the drift tests iterate over this list. */
export const operations: Operation[] = [
  backendConnectCheck,
  generateVideo,
  getVideoJobStatus,
  listVideoJobs,
  cancelVideoJob,
];
