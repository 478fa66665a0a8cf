/**
 * DESIGN §10 roles as one table: what each brand action needs at least. Handlers check it on the server
 * (lib/brands/brand-access.ts), the UI reads it for disabled states, and the docs cards name it. Zod-free,
 * so the browser can import it.
 */
import { BRAND_ROLES, type BrandRole } from "./enums";

export const PERMISSIONS = {
  // viewer: reads the brand, posts, videos, calendar and activity
  "brand.read": "viewer",
  "post.read": "viewer",
  "video.read": "viewer",
  "publication.read": "viewer",
  "activity.read": "viewer",
  // editor: also writes drafts, regenerates, makes videos, submits posts for approval
  "post.create": "editor",
  "post.update": "editor",
  "post.submit": "editor",
  "video.create": "editor",
  "video.cancel": "editor",
  // owner: the brand and its kit, members and roles, channels, quota, approval, publishing, deletion
  "brand.update": "owner",
  "brand.delete": "owner",
  "member.manage": "owner",
  "channel.manage": "owner",
  "post.approve": "owner",
  "post.delete": "owner",
  "publication.create": "owner",
  "publication.cancel": "owner",
} as const satisfies Record<string, BrandRole>;

export type Permission = keyof typeof PERMISSIONS;

export const roleRank = (role: BrandRole) => BRAND_ROLES.indexOf(role);

/** True when `role` may do `permission`. */
export function can(role: BrandRole, permission: Permission) {
  return roleRank(role) >= roleRank(PERMISSIONS[permission]);
}
