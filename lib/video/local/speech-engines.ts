import "server-only";
import fs from "node:fs";
import { createOpenAI } from "@ai-sdk/openai";
import { experimental_generateSpeech as generateSpeech } from "ai";
import { getEnv } from "@/lib/config";
import { inAiSpan } from "@/lib/telemetry/tracing";
import { type EspeakProgram, findEspeak, findEspeakWasm } from "./find-binary";
import { type Pcm, readWav, SHELL, speak, speakAll } from "./speech";

export type SpeechEngineName = "openai" | "espeak-ng" | "espeak-wasm";

/** One engine, ready to speak phrases into PCM. */
export type SpeechEngine = {
  name: SpeechEngineName;
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
  return {
    name: "openai",
    async say(text, _wavFile, signal) {
      const { audio } = await inAiSpan("generateSpeech", env.TTS_MODEL, () =>
        generateSpeech({
          model,
          text,
          voice: options.voice ?? env.TTS_VOICE,
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
  return {
    name,
    async say(text, wavFile, signal) {
      const textFile = `${wavFile}.txt`;
      await fs.promises.writeFile(textFile, text);
      return speak({
        espeak,
        textFile,
        wavFile,
        language: options.language,
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
              language: options.language,
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
