"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ChangeEvent, useRef, useState } from "react";
import { Button, Card, ErrorNotice } from "@/components/ui/primitives";
import { ApiClientError, callApi } from "@/lib/client/api-client";
import { uploadAvatar } from "@/lib/client/operations";
import { brandChanged } from "@/lib/client/queries";
import { AVATAR_UPLOAD } from "@/lib/contracts/brand-rules";
import type { BrandResponse } from "@/lib/contracts/brands";
import { AvatarStatusBadge } from "./avatar-status";

const MAX_MB = AVATAR_UPLOAD.maxBytes / (1024 * 1024);

function TrainingNote({ endsAt }: { endsAt: string | null }) {
  const at = endsAt ? new Date(endsAt).toLocaleTimeString() : null;
  return (
    <p className="text-sm text-amber-800">
      Preparing the avatar for videos{at ? `; expected by ${at}` : ""}. This page updates by itself.
    </p>
  );
}

/** Upload the avatar and follow its training; the brand query polls while it trains (see brandQueries.detail). */
export function AvatarPanel({ brand, readOnly = false }: { brand: BrandResponse; readOnly?: boolean }) {
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [tooLarge, setTooLarge] = useState<string | null>(null);

  const upload = useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append(AVATAR_UPLOAD.field, file);
      return (await callApi(uploadAvatar, { params: { brandId: brand.brandId }, body: form })).data;
    },
    onSuccess: (updated) => brandChanged(queryClient, updated),
  });

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    // The server refuses it too; checking here saves uploading megabytes for nothing.
    if (file.size > AVATAR_UPLOAD.maxBytes) {
      setTooLarge(`"${file.name}" is larger than ${MAX_MB} MB. Choose a smaller image.`);
      return;
    }
    setTooLarge(null);
    upload.mutate(file);
  }

  const error = tooLarge ?? (upload.error ? upload.error.message : null);
  const retryable = upload.error instanceof ApiClientError && upload.error.retryable && upload.variables;

  return (
    <Card className="space-y-4">
      <div className="flex items-center justify-between gap-3">
        <h2 className="font-semibold">Avatar</h2>
        <AvatarStatusBadge status={brand.avatarStatus} />
      </div>
      <p className="text-sm text-slate-600">
        Avatar videos show it in a circle. PNG, JPEG or WebP, at most {MAX_MB} MB, at least{" "}
        {AVATAR_UPLOAD.minSide}×{AVATAR_UPLOAD.minSide} pixels.
      </p>

      {brand.avatarUrl ? (
        <div className="flex items-center gap-4">
          {/* biome-ignore lint/performance/noImgElement: media files are served by this app's own route. */}
          <img
            src={brand.avatarUrl}
            alt={`Uploaded avatar of ${brand.name}`}
            className="h-28 w-28 rounded-lg border border-slate-200 object-cover"
          />
          {brand.avatarFrameUrl && (
            <figure className="space-y-1 text-center">
              {/* biome-ignore lint/performance/noImgElement: media files are served by this app's own route. */}
              <img
                src={brand.avatarFrameUrl}
                alt={`Avatar frame of ${brand.name} for videos`}
                data-testid="avatar-frame"
                className="h-28 w-28 rounded-full bg-[repeating-conic-gradient(#e2e8f0_0_25%,#fff_0_50%)] bg-[length:16px_16px]"
              />
              <figcaption className="text-xs text-slate-500">In videos</figcaption>
            </figure>
          )}
        </div>
      ) : (
        <div className="grid h-28 place-items-center rounded-lg border border-dashed border-slate-300 text-sm text-slate-500">
          No avatar yet. Upload a photo or a logo.
        </div>
      )}

      {brand.avatarStatus === "training" && <TrainingNote endsAt={brand.avatarTrainingEndsAt} />}
      {brand.avatarStatus === "failed" && brand.avatarError && (
        <p role="alert" className="text-sm text-red-700">
          {brand.avatarError}
        </p>
      )}
      {error && (
        <ErrorNotice
          message={error}
          onRetry={retryable && upload.variables ? () => upload.mutate(upload.variables) : undefined}
        />
      )}

      <input
        ref={input}
        type="file"
        accept={AVATAR_UPLOAD.types.join(",")}
        aria-label="Avatar image file"
        className="hidden"
        onChange={onFile}
      />
      <Button
        variant="secondary"
        disabled={readOnly || upload.isPending}
        onClick={() => input.current?.click()}
      >
        {upload.isPending ? "Uploading…" : brand.avatarUrl ? "Replace avatar" : "Upload avatar"}
      </Button>
    </Card>
  );
}
