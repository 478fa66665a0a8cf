import "server-only";
import type { Tx } from "@/db/client";
import { type Post, posts } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { memberScoped } from "@/lib/brands/brand-access";
import type { BrandRole } from "@/lib/contracts/enums";
import type { Permission } from "@/lib/contracts/permissions";

/**
 * Loads a post of a brand the principal is a member of whose role may do `permission`; anything else is
 * 404, like brands (a role too weak: 403 `forbidden`). Inside a
 * transaction it can lock the row, so concurrent edits are checked against the latest version.
 */
export async function getPostForPrincipal({
  principal,
  postId,
  permission,
  tx,
  forUpdate = false,
}: {
  principal: Principal;
  postId: string;
  permission: Permission;
  tx?: Tx;
  forUpdate?: boolean;
}): Promise<Post> {
  return (await getPostAndRole({ principal, postId, permission, tx, forUpdate })).post;
}

/** The post and the caller's role on its brand (after checking `permission`). */
export async function getPostAndRole({
  principal,
  postId,
  permission,
  tx,
  forUpdate = false,
}: {
  principal: Principal;
  postId: string;
  permission: Permission;
  tx?: Tx;
  forUpdate?: boolean;
}): Promise<{ post: Post; role: BrandRole }> {
  const { row, role } = await memberScoped(posts, postId, principal, permission, { tx, forUpdate });
  return { post: row, role };
}
