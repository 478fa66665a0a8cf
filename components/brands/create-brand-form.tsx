"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { BrandForm } from "@/components/brands/brand-form";
import { brandChanged } from "@/lib/client/queries";

export function CreateBrandForm() {
  const router = useRouter();
  const queryClient = useQueryClient();
  return (
    <BrandForm
      onSaved={(brand) => {
        brandChanged(queryClient, brand);
        router.push(`/brands/${brand.brandId}`);
      }}
    />
  );
}
