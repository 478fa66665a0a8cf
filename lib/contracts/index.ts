import { backendConnectCheck } from "./health";
import type { Operation } from "./operation";
import { generatePost, getPost, listPosts, updatePost } from "./posts";

/** Every operation the API exposes. OpenAPI, the docs cards and the drift tests iterate over this list. */
export const operations: Operation[] = [backendConnectCheck, generatePost, getPost, updatePost, listPosts];
