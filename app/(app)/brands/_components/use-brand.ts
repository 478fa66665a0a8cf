"use client";

import { useQuery } from "@tanstack/react-query";
import { callApi } from "@/lib/client/api-client";
import {
  type BrandContextResponse,
  type BrandResponse,
  brandContext,
  getBrand,
} from "@/lib/contracts/brands";

// Matches the Retry-After the upload answers with.
const TRAINING_POLL_MS = 2000;

export const brandKey = (brandId: string) => ["brand", brandId] as const;
export const brandContextKey = (brandId: string) => ["brand-context", brandId] as const;

/** One brand, polled while its avatar trains so the page follows it to ready or failed. */
export function useBrand(brandId: string) {
  return useQuery({
    queryKey: brandKey(brandId),
    queryFn: async () => (await callApi<BrandResponse>(getBrand, { params: { brandId } })).data,
    refetchInterval: (query) => (query.state.data?.avatarStatus === "training" ? TRAINING_POLL_MS : false),
  });
}

export function useBrandContext(brandId: string) {
  return useQuery({
    queryKey: brandContextKey(brandId),
    queryFn: async () => (await callApi<BrandContextResponse>(brandContext, { params: { brandId } })).data,
  });
}
