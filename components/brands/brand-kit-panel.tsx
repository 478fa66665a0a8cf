"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ChangeEvent, useRef, useState } from "react";
import { Button, Card, ErrorNotice } from "@/components/ui/primitives";
import { ApiClientError, callApi } from "@/lib/client/api-client";
import { deleteLogo, deleteMusic, uploadLogo, uploadMusic } from "@/lib/client/operations";
import { brandChanged } from "@/lib/client/queries";
import { KIT_UPLOAD_FIELD, LOGO_LIMITS, MUSIC_LIMITS } from "@/lib/contracts/brand-kit-rules";
import type { BrandResponse } from "@/lib/contracts/brands";

const megabytes = (bytes: number) => bytes / (1024 * 1024);

/** One kit file: upload (or replace) and remove, with the browser-side size check and the server's errors. */
function useKitFile(brand: BrandResponse, kind: "logo" | "music") {
  const queryClient = useQueryClient();
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const limit = kind === "logo" ? LOGO_LIMITS.maxBytes : MUSIC_LIMITS.maxBytes;
  const params = { brandId: brand.brandId };
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append(KIT_UPLOAD_FIELD, file);
      const sent =
        kind === "logo"
          ? callApi(uploadLogo, { params, body: form })
          : callApi(uploadMusic, { params, body: form });
      return (await sent).data;
    },
    onSuccess: (updated) => brandChanged(queryClient, updated),
  });
  const remove = useMutation({
    mutationFn: async () =>
      (await (kind === "logo" ? callApi(deleteLogo, { params }) : callApi(deleteMusic, { params }))).data,
    onSuccess: (updated) => brandChanged(queryClient, updated),
  });
  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (file.size > limit) {
      setTooLarge(`"${file.name}" is larger than ${megabytes(limit)} MB. Choose a smaller file.`);
      return;
    }
    setTooLarge(null);
    remove.reset();
    upload.mutate(file);
  }
  const failure = upload.error ?? remove.error;
  const error =
    tooLarge ??
    (failure instanceof ApiClientError && failure.code === "forbidden"
      ? "Only the brand's owner can change its kit."
      : (failure?.message ?? null));
  return { upload, remove, onFile, error, busy: upload.isPending || remove.isPending };
}

/** The brand kit's files: the logo (shown on a checkerboard, so transparency shows) and the music bed. */
export function BrandKitPanel({ brand }: { brand: BrandResponse }) {
  const logoInput = useRef<HTMLInputElement>(null);
  const musicInput = useRef<HTMLInputElement>(null);
  const logo = useKitFile(brand, "logo");
  const music = useKitFile(brand, "music");

  return (
    <Card className="space-y-5">
      <div>
        <h2 className="font-semibold">Brand kit</h2>
        <p className="text-sm text-slate-600">
          The logo sits in a corner of every video frame; the music plays under the voice.
        </p>
      </div>

      <section className="space-y-3" aria-labelledby="kit-logo">
        <h3 id="kit-logo" className="text-sm font-medium text-slate-700">
          Logo
        </h3>
        {brand.logoUrl ? (
          <div
            data-testid="brand-logo-box"
            className="h-28 overflow-hidden rounded-lg border border-slate-200 bg-[repeating-conic-gradient(#e2e8f0_0_25%,#fff_0_50%)] bg-[length:16px_16px] p-3"
          >
            {/* biome-ignore lint/performance/noImgElement: media files are served by this app's own route. */}
            <img
              src={brand.logoUrl}
              alt={`Logo of ${brand.name}`}
              data-testid="brand-logo"
              // The box's size, whatever the file's: a 256×256 logo shrinks into it (object-contain keeps its shape).
              className="block size-full object-contain"
            />
          </div>
        ) : (
          <div className="grid h-28 place-items-center rounded-lg border border-dashed border-slate-300 px-4 text-center text-sm text-slate-500">
            No logo yet. PNG, JPEG or SVG, up to {megabytes(LOGO_LIMITS.maxBytes)} MB.
          </div>
        )}
        {logo.error && <ErrorNotice message={logo.error} />}
        <input
          ref={logoInput}
          type="file"
          accept={LOGO_LIMITS.mimeTypes.join(",")}
          aria-label="Logo file"
          className="hidden"
          onChange={logo.onFile}
        />
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" disabled={logo.busy} onClick={() => logoInput.current?.click()}>
            {logo.upload.isPending ? "Uploading…" : brand.logoUrl ? "Replace logo" : "Upload logo"}
          </Button>
          {brand.logoUrl && (
            <Button variant="danger" disabled={logo.busy} onClick={() => logo.remove.mutate()}>
              Remove
            </Button>
          )}
        </div>
      </section>

      <section className="space-y-3 border-t border-slate-100 pt-4" aria-labelledby="kit-music">
        <h3 id="kit-music" className="text-sm font-medium text-slate-700">
          Music
        </h3>
        {brand.musicUrl ? (
          // biome-ignore lint/a11y/useMediaCaption: instrumental music has no words to caption.
          <audio
            controls
            src={brand.musicUrl}
            className="w-full"
            data-testid="brand-music"
            preload="metadata"
          />
        ) : (
          <p className="rounded-lg border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-500">
            No music. MP3, AAC or WAV, up to {megabytes(MUSIC_LIMITS.maxBytes)} MB; it is looped, faded and
            ducked under the voice.
          </p>
        )}
        {music.error && <ErrorNotice message={music.error} />}
        <input
          ref={musicInput}
          type="file"
          accept=".mp3,.m4a,.aac,.wav,audio/mpeg,audio/aac,audio/mp4,audio/wav"
          aria-label="Music file"
          className="hidden"
          onChange={music.onFile}
        />
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" disabled={music.busy} onClick={() => musicInput.current?.click()}>
            {music.upload.isPending ? "Checking…" : brand.musicUrl ? "Replace music" : "Upload music"}
          </Button>
          {brand.musicUrl && (
            <Button variant="danger" disabled={music.busy} onClick={() => music.remove.mutate()}>
              Remove
            </Button>
          )}
        </div>
      </section>
    </Card>
  );
}
