import "server-only";
import fs from "node:fs";
import { createOpenAI } from "@ai-sdk/openai";
import { experimental_generateSpeech as generateSpeech } from "ai";
import { getEnv } from "@/lib/config";
import { type EspeakProgram, findEspeak, findEspeakWasm } from "@/lib/ffmpeg/find-binary";
import { inAiSpan } from "@/lib/telemetry/tracing";
import { type Pcm, readWav, SHELL, speak, speakAll } from "./speech";

export type SpeechEngineName = "openai" | "espeak-ng" | "espeak-wasm";

/**
 * eSpeak NG's voices (its language names, as in `espeak-ng --voices`, Debian's 1.51+ and the npm build).
 * A BCP 47 tag takes its own voice (`pt-br`), else its language's (`de-AT` → `de`), Chinese Mandarin's
 * or Cantonese's by region; a language without one is spoken in English, with a warning.
 */
const ESPEAK_VOICES = new Set(
  (
    "af am an ar as az ba be bg bn bpy bs ca cmn cs cv cy da de el en en-029 en-gb en-us eo es es-419 et eu " +
    "fa fi fr fr-be fr-ch ga gd gn grc gu hak haw he hi hr ht hu hy hyw ia id io is it ja jbo ka kk kl kn ko " +
    "kok ku ky la lb lfn lt ltg lv mi mk ml mr ms mt my nb nci ne nl nog om or pa pap pl pt pt-br py qu quc ro " +
    "ru sd shn si sk sl smj sq sr sv sw ta te th tk tn tr tt ug uk ur uz vi yue"
  ).split(" "),
);

export function espeakVoice(language: string): string | null {
  const tag = language.toLowerCase();
  const primary = tag.split("-")[0];
  if (primary === "zh") return /^zh-(hk|mo|yue)/.test(tag) ? "yue" : "cmn";
  if (primary === "no") return "nb";
  if (ESPEAK_VOICES.has(tag)) return tag;
  return ESPEAK_VOICES.has(primary) ? primary : null;
}

/** One engine, ready to speak phrases into PCM. */
export type SpeechEngine = {
  name: SpeechEngineName;
  /** The voice it speaks with (eSpeak NG's language voice, OpenAI's voice name). */
  voice: string;
  say(text: string, wavFile: string, signal: AbortSignal): Promise<Pcm>;
  /** Many phrases at once, `lanes` side by side, where the engine does that more cheaply than `say`. */
  sayAll?(
    items: { text: string; wavFile: string }[],
    options: { lanes: number; signal: AbortSignal; onSpoken: () => void },
  ): Promise<Pcm[]>;
};

export type SpeechOptions = { language: string; wordsPerMinute: number; voice: string | null };

function openAiEngine(options: SpeechOptions): SpeechEngine | null {
  const env = getEnv();
  if (!env.OPENAI_API_KEY) return null;
  const model = createOpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL }).speech(
    env.TTS_MODEL,
  );
  const voice = options.voice ?? env.TTS_VOICE;
  return {
    name: "openai",
    voice,
    async say(text, _wavFile, signal) {
      const { audio } = await inAiSpan("generateSpeech", env.TTS_MODEL, () =>
        generateSpeech({
          model,
          text,
          voice,
          outputFormat: "wav",
          // The brief's pace, against espeak-ng's default 175 words a minute (OpenAI's speed 1).
          speed: Math.round((options.wordsPerMinute / 175) * 100) / 100,
          abortSignal: signal,
          maxRetries: 1,
        }),
      );
      return readWav(Buffer.from(audio.uint8Array));
    },
  };
}

/**
 * An espeak-ng program: Debian's binary, or eSpeak NG compiled to WebAssembly run as its own Node process
 * (scripts/espeak-wasm.mjs), which takes the same arguments. Either way the engine runs outside the app.
 */
function espeakEngine(
  name: "espeak-ng" | "espeak-wasm",
  espeak: EspeakProgram | null,
  options: SpeechOptions,
): SpeechEngine | null {
  if (!espeak) return null;
  const voice = espeakVoice(options.language) ?? "en";
  return {
    name,
    voice,
    async say(text, wavFile, signal) {
      const textFile = `${wavFile}.txt`;
      await fs.promises.writeFile(textFile, text);
      return speak({
        espeak,
        textFile,
        wavFile,
        voice,
        wordsPerMinute: options.wordsPerMinute,
        signal,
      });
    },
    // Without /bin/sh, each phrase is its own process through `say`.
    ...(fs.existsSync(SHELL)
      ? {
          sayAll: (
            items: { text: string; wavFile: string }[],
            { lanes, signal, onSpoken }: { lanes: number; signal: AbortSignal; onSpoken: () => void },
          ) =>
            speakAll({
              espeak,
              items,
              voice,
              wordsPerMinute: options.wordsPerMinute,
              lanes,
              signal,
              onSpoken,
            }),
        }
      : {}),
  };
}

/** The engines TTS_ENGINES allows, in its order, that can run here (openai needs OPENAI_API_KEY). */
export function speechEngines(options: SpeechOptions): SpeechEngine[] {
  const wanted = getEnv().TTS_ENGINES;
  if (wanted === "none") return [];
  return (wanted.split(",") as SpeechEngineName[])
    .map((name) =>
      name === "openai"
        ? openAiEngine(options)
        : espeakEngine(name, name === "espeak-ng" ? findEspeak() : findEspeakWasm(), options),
    )
    .filter((engine) => engine !== null);
}
