import { afterEach, describe, expect, it } from "vitest";
import { assertQuotaChangeAllowed, effectiveMonthlyQuota } from "@/lib/brands/quota-policy";
import { ApiError } from "@/lib/errors/api-error";
import { signInAsDemo } from "./support/auth";
import { api, baseUrl } from "./support/http";
import { createBrand } from "./support/post-fixtures";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe("quota governance rules", () => {
  it("only the owner may set the quota, never above the operator's cap", () => {
    process.env.VIDEO_MONTHLY_QUOTA = "30";
    delete process.env.VIDEO_MONTHLY_QUOTA_MAX;
    expect(() => assertQuotaChangeAllowed({ role: "owner", value: 12 })).not.toThrow();
    expect(() => assertQuotaChangeAllowed({ role: "owner", value: null })).not.toThrow();
    expect(() => assertQuotaChangeAllowed({ role: "editor", value: undefined })).not.toThrow();
    const editor = (() => {
      try {
        assertQuotaChangeAllowed({ role: "editor", value: 5 });
      } catch (error) {
        return error;
      }
    })();
    expect(editor).toBeInstanceOf(ApiError);
    expect((editor as ApiError).details).toEqual([
      { path: "monthlyVideoQuota", message: "Only the brand's owner can change the monthly video quota." },
    ]);
    expect(() => assertQuotaChangeAllowed({ role: "owner", value: 31 })).toThrow(/at most 30/);
    process.env.VIDEO_MONTHLY_QUOTA_MAX = "100";
    expect(() => assertQuotaChangeAllowed({ role: "owner", value: 100 })).not.toThrow();
    expect(effectiveMonthlyQuota(null)).toBe(30);
    process.env.VIDEO_MONTHLY_QUOTA_MAX = "10";
    // A quota saved before the cap was lowered is bounded by it.
    expect(effectiveMonthlyQuota(100)).toBe(10);
  });
});

describe("PATCH /api/brands/{brandId} monthlyVideoQuota", () => {
  it("refuses a quota above the operator's cap with 400 naming the field", async () => {
    const { accessToken: token } = await signInAsDemo(baseUrl());
    const brandId = await createBrand(api, token, { name: "Quota brand" });
    const raised = await api(`/api/brands/${brandId}`, {
      method: "PATCH",
      token,
      json: { monthlyVideoQuota: 1000 },
    });
    expect(raised.status).toBe(400);
    expect(raised.body.error.code).toBe("invalid_request");
    expect(raised.body.error.details).toEqual([
      { path: "monthlyVideoQuota", message: expect.stringMatching(/at most 30 on this server/) },
    ]);
    const lowered = await api(`/api/brands/${brandId}`, {
      method: "PATCH",
      token,
      json: { monthlyVideoQuota: 3 },
    });
    expect(lowered.status).toBe(200);
    expect(lowered.body).toMatchObject({ monthlyVideoQuota: 3, effectiveMonthlyVideoQuota: 3 });
  });
});
