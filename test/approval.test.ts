import { beforeAll, describe, expect, it } from "vitest";
import { assertPublishable, reviewTransition, statusAfterEdit } from "@/lib/posts/post-state";
import { newUser } from "./support/auth";
import { api, baseUrl } from "./support/http";

type User = Awaited<ReturnType<typeof newUser>>;

describe("the approval state machine", () => {
  it("moves draft → in_review → approved, or back to draft with changes requested, and nothing else", () => {
    expect(reviewTransition("draft", "submit")).toBe("in_review");
    expect(reviewTransition("in_review", "approve")).toBe("approved");
    expect(reviewTransition("in_review", "request_changes")).toBe("draft");
    expect(() => reviewTransition("draft", "approve")).toThrow(/cannot be approved/);
    expect(() => reviewTransition("approved", "submit")).toThrow(/cannot be submitted/);
    expect(statusAfterEdit("approved", true)).toBe("in_review");
    expect(statusAfterEdit("approved", false)).toBe("draft");
    expect(statusAfterEdit("draft", true)).toBe("draft");
    expect(statusAfterEdit("scheduled", true)).toBe("in_review");
    expect(statusAfterEdit("published", true)).toBe("in_review");
    expect(statusAfterEdit("published", false)).toBe("published");
  });

  it("lets only an approved post be scheduled or published when the brand needs approval", () => {
    expect(() => assertPublishable({ status: "draft" }, { requiresApproval: true })).toThrow(
      expect.objectContaining({ code: "post_not_approved" }),
    );
    expect(() => assertPublishable({ status: "in_review" }, { requiresApproval: true })).toThrow();
    expect(() => assertPublishable({ status: "approved" }, { requiresApproval: true })).not.toThrow();
    expect(() => assertPublishable({ status: "draft" }, { requiresApproval: false })).not.toThrow();
  });
});

describe("approval over HTTP", () => {
  let owner: User;
  let editor: User;
  let brandId: string;

  beforeAll(async () => {
    [owner, editor] = await Promise.all([newUser(baseUrl()), newUser(baseUrl())]);
    const brand = await api("/api/brands", {
      method: "POST",
      token: owner.token,
      json: { name: "Approval Brand", tone: "warm", voice: "short sentences" },
    });
    brandId = brand.body.brandId;
    const on = await api(`/api/brands/${brandId}`, {
      method: "PATCH",
      token: owner.token,
      json: { requiresApproval: true },
    });
    expect(on.status, on.text).toBe(200);
    expect(on.body.requiresApproval).toBe(true);
    const invitation = await api(`/api/brands/${brandId}/invitations`, {
      method: "POST",
      token: owner.token,
      json: { email: editor.email, role: "editor" },
    });
    const token = invitation.body.link.split("/invite/")[1];
    await api(`/api/invitations/${token}/accept`, { method: "POST", token: editor.token, json: {} });
  });

  it("an editor submits, the owner asks for changes, the editor resubmits, the owner approves; an edit sends it back", async () => {
    const draft = await api("/api/content/create", {
      method: "POST",
      token: editor.token,
      json: { brandId, channel: "linkedin", goal: "awareness", topic: "Our new seasonal roast" },
    });
    expect(draft.status, draft.text).toBe(201);
    const postId = draft.body.postId;
    const submit = (note?: string) =>
      api(`/api/posts/${postId}/submit`, {
        method: "POST",
        token: editor.token,
        json: note ? { comment: note } : {},
      });
    const review = (json: object, token = owner.token) =>
      api(`/api/posts/${postId}/review`, { method: "POST", token, json });

    expect((await review({ decision: "approve" }, editor.token)).status).toBe(403);
    const submitted = await submit("First try");
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body).toMatchObject({
      status: "in_review",
      review: { action: "submitted", comment: "First try" },
    });

    const queue = await api("/api/reviews", { token: owner.token });
    expect(queue.body.items.map((item: { postId: string }) => item.postId)).toContain(postId);
    expect((await api("/api/reviews", { token: editor.token })).body.items).toEqual([]);

    expect((await review({ decision: "request_changes" })).status).toBe(400);
    const changes = await review({ decision: "request_changes", comment: "Lead with the origin." });
    expect(changes.body).toMatchObject({
      status: "draft",
      review: { action: "changes_requested", comment: "Lead with the origin.", by: owner.userId },
    });
    const resubmitted = await submit();
    expect(resubmitted.body.status).toBe("in_review");
    const approved = await review({ decision: "approve", version: resubmitted.body.version });
    expect(approved.body).toMatchObject({
      status: "approved",
      review: { action: "approved", by: owner.userId },
    });

    const edited = await api(`/api/posts/${postId}`, {
      method: "PATCH",
      token: editor.token,
      json: { hashtags: ["#Roast"] },
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.status).toBe("in_review");

    const activity = await api(`/api/brands/${brandId}/activity`, { token: editor.token });
    expect(activity.status, activity.text).toBe(200);
    const actions = activity.body.items.map((item: { action: string }) => item.action);
    expect(actions.slice(0, 5)).toEqual([
      "post.updated",
      "post.approved",
      "post.submitted",
      "post.changes_requested",
      "post.submitted",
    ]);
    // The brand's own history, oldest last: created, approval turned on, the editor invited and joined.
    expect(actions.slice(-4)).toEqual([
      "member.joined",
      "invitation.created",
      "brand.updated",
      "brand.created",
    ]);
    const turnedOn = activity.body.items.find((item: { action: string }) => item.action === "brand.updated");
    expect(turnedOn).toMatchObject({
      actorId: owner.userId,
      actorEmail: owner.email,
      details: { fields: ["requiresApproval"] },
    });
  });
});
