import { brandContext, createBrand, getBrand, listBrands, updateBrand, uploadAvatar } from "./brands";
import { backendConnectCheck } from "./health";
import type { Operation } from "./operation";

/** Every operation the API exposes. OpenAPI, the docs cards and the drift tests iterate over this list. */
export const operations: Operation[] = [
  backendConnectCheck,
  listBrands,
  createBrand,
  getBrand,
  updateBrand,
  brandContext,
  uploadAvatar,
];
