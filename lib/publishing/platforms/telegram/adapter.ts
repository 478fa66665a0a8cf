import "server-only";
import { channelCredentials } from "@/lib/publishing/channels";
import { mediaPlanImages, type PlanImage, videoPayload } from "@/lib/publishing/media-delivery";
import { SecretDecryptionError } from "@/lib/security/encrypt-secret";
import type { PlatformAdapter, Sent } from "../adapter";
import { callTelegram, type TelegramMessage, telegramPermalink } from "./client";

/** The post's video, else the media plan's images (a photo, or an album of 2 to 10), else none. */
type TelegramMedia = { video: Awaited<ReturnType<typeof videoPayload>> } | { images: PlanImage[] } | null;

/** A multipart body: the fields, then each file under its name. */
function telegramForm(
  fields: Record<string, string>,
  files: Record<string, Pick<PlanImage, "bytes" | "contentType" | "filename">>,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  for (const [name, file] of Object.entries(files)) {
    form.set(name, new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), file.filename);
  }
  return form;
}

/**
 * sendMessage; sendVideo by URL or as an upload; sendPhoto for one image; sendMediaGroup for an album of
 * 2 to 10 (the caption on its first photo; the permalink is the album's first message).
 */
async function sendTelegram(
  botToken: string,
  chatId: string,
  text: string,
  media: TelegramMedia,
): Promise<Sent> {
  let message: TelegramMessage;
  if (!media) {
    message = await callTelegram<TelegramMessage>(botToken, "sendMessage", { chat_id: chatId, text });
  } else if ("images" in media) {
    const { images } = media;
    if (images.length === 1) {
      message = await callTelegram<TelegramMessage>(
        botToken,
        "sendPhoto",
        telegramForm({ chat_id: chatId, caption: text }, { photo: images[0] }),
      );
    } else {
      const files = Object.fromEntries(images.map((image, index) => [`photo${index}`, image]));
      const album = images.map((_, index) => ({
        type: "photo",
        media: `attach://photo${index}`,
        ...(index === 0 ? { caption: text } : {}),
      }));
      [message] = await callTelegram<TelegramMessage[]>(
        botToken,
        "sendMediaGroup",
        telegramForm({ chat_id: chatId, media: JSON.stringify(album) }, files),
      );
    }
  } else if (media.video.kind === "url") {
    message = await callTelegram<TelegramMessage>(botToken, "sendVideo", {
      chat_id: chatId,
      video: media.video.url,
      caption: text,
      supports_streaming: true,
    });
  } else {
    const { bytes, filename } = media.video;
    message = await callTelegram<TelegramMessage>(
      botToken,
      "sendVideo",
      telegramForm(
        { chat_id: chatId, caption: text, supports_streaming: "true" },
        { video: { bytes, filename, contentType: "video/mp4" } },
      ),
    );
  }
  return {
    externalId: String(message.message_id),
    permalink: telegramPermalink(message.chat, message.message_id),
    publishedAt: new Date(message.date ? message.date * 1000 : Date.now()),
  };
}

/** Telegram: the bot token as stored, and one call that posts (nothing to upload first). */
export const telegramAdapter: PlatformAdapter<TelegramMedia> = {
  async freshCredentials(channel) {
    try {
      return channelCredentials(channel).botToken;
    } catch (error) {
      // Whatever stops it being read (a changed key, a damaged record), the channel must be reconnected.
      throw error instanceof SecretDecryptionError
        ? error
        : new SecretDecryptionError((error as Error).message);
    }
  },
  async prepareMedia(post) {
    if (post.videoUrl) return { media: { video: await videoPayload(post.videoUrl, post.brandId) } };
    const images = await mediaPlanImages(post);
    return { media: images.length > 0 ? { images } : null };
  },
  async send({ credential, channel, text, media }, run) {
    await run.commitCall();
    return sendTelegram(credential, channel.externalId, text, media);
  },
};
