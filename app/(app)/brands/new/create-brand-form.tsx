"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { BrandForm } from "../_components/brand-form";
import { brandKey } from "../_components/use-brand";

export function CreateBrandForm() {
  const router = useRouter();
  const queryClient = useQueryClient();
  return (
    <BrandForm
      onSaved={(brand) => {
        queryClient.setQueryData(brandKey(brand.brandId), brand);
        void queryClient.invalidateQueries({ queryKey: ["brands"] });
        router.push(`/brands/${brand.brandId}`);
      }}
    />
  );
}
