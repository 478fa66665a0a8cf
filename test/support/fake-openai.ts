import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

/** How the fake answers POST /v1/chat/completions. */
export type ChatBehaviour =
  | { kind: "draft"; draft?: (brief: FakeBrief) => unknown }
  | { kind: "status"; status: number }
  | { kind: "hang" }
  | { kind: "malformed" };

export type FakeBrief = { channel: string; goal: string; topic: string };

// biome-ignore lint/suspicious/noExplicitAny: tests read the recorded JSON bodies freely.
export type RecordedRequest = { path: string; headers: http.IncomingHttpHeaders; body: any };

type ChatMessage = { role: string; content: unknown };

/** The draft a well-behaved model would write for the brief in the prompt. */
export function defaultDraft(brief: FakeBrief) {
  return {
    caption: `${brief.topic}: here is what you need to know.\n\nWe made it with care.\n\nRead more on our website.`,
    hashtags: ["#FakeModel", "#Coffee"],
    mediaPlan: {
      format: "single_image",
      items: [
        {
          type: "image",
          description: `Photo for ${brief.topic}`,
          altText: "A cup of coffee on a table.",
          aspectRatio: "4:5",
          overlayText: null,
        },
      ],
    },
  };
}

function briefFrom(messages: ChatMessage[] = []): FakeBrief {
  const text = messages
    .filter((message) => message.role === "user")
    .map((message) => (typeof message.content === "string" ? message.content : ""))
    .join("\n");
  const block = text.match(/<brief>\s*([\s\S]*?)\s*<\/brief>/);
  return block ? JSON.parse(block[1]) : { channel: "linkedin", goal: "awareness", topic: "unknown topic" };
}

/**
 * Real audio for /v1/audio/speech: a 24 kHz mono 16-bit WAV (OpenAI's wav format), a 220 Hz tone
 * 0.3 s per word with a short fade, so a renderer times its captions from it like from a voice.
 */
export function speechWav(text: string) {
  const rate = 24_000;
  const words = text.split(/\s+/).filter(Boolean).length;
  const samples = Math.round(rate * 0.3 * Math.max(1, words));
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const fade = Math.min(1, i / 600, (samples - i) / 600);
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 220 * i) / rate) * 12_000 * fade), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * A local HTTP server that speaks the parts of the OpenAI API the app uses: Chat Completions (JSON output,
 * whole or streamed as server-sent events, at a pace `state.pace` may slow), /moderations and /audio/speech. Tests switch its behaviour between calls and read what it was sent.
 */
export async function startFakeOpenAI() {
  const requests: RecordedRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const state = {
    chat: { kind: "draft" } as ChatBehaviour,
    /** Inputs matching this are flagged by /moderations, under these categories. */
    flag: null as RegExp | null,
    flagCategories: ["violence"],
    moderationStatus: 200,
    usage: { prompt_tokens: 321, completion_tokens: 123 },
    /**
     * /images/generations: the colour of the PNG it draws, an HTTP status to fail with, or `hold`: each call
     * waits, unanswered, until releaseImages() answers it with a PNG of that colour.
     */
    image: { kind: "png", color: "#12AB34" } as
      | { kind: "png"; color: string }
      | { kind: "status"; status: number }
      | { kind: "hold"; color: string },
    /**
     * A model's pace (the bench's slow model): a streamed answer's first token after `firstTokenMs`, then
     * `tokensPerSecond`; a whole JSON answer after `answerMs`. Zero: at once.
     */
    pace: { firstTokenMs: 0, tokensPerSecond: 0, answerMs: 0 },
  };
  /** Image calls held by `hold`, each waiting to be answered. */
  const heldImages: (() => void)[] = [];
  /** Per streamed chat completion: the brief's topic and when the first token was written (performance.now()). */
  const firstTokens: { topic: string; at: number }[] = [];

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      let body: RecordedRequest["body"] = null;
      try {
        body = JSON.parse(raw);
      } catch {}
      const path = req.url ?? "";
      requests.push({ path, headers: req.headers, body });
      const json = (status: number, payload: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(payload));
      };

      if (path.endsWith("/moderations")) {
        if (state.moderationStatus !== 200)
          return json(state.moderationStatus, { error: { message: "down" } });
        const inputs: string[] = Array.isArray(body?.input) ? body.input : [String(body?.input ?? "")];
        return json(200, {
          id: "modr-fake",
          model: body?.model,
          results: inputs.map((input) => {
            const flagged = state.flag?.test(input) ?? false;
            return {
              flagged,
              categories: Object.fromEntries(
                ["violence", "hate", "sexual", "self-harm", ...state.flagCategories].map((category) => [
                  category,
                  flagged && state.flagCategories.includes(category),
                ]),
              ),
            };
          }),
        });
      }

      if (path.endsWith("/images/generations")) {
        // OpenAI's documented answer: { created, data: [{ b64_json }] }, a PNG of the requested size.
        const behaviour = state.image;
        if (behaviour.kind === "status")
          return json(behaviour.status, {
            error: { message: "The fake image model is down.", type: "server_error" },
          });
        if (typeof body?.prompt !== "string" || !body.prompt)
          return json(400, { error: { message: "No prompt." } });
        const [width, height] = String(body.size ?? "1024x1024")
          .split("x")
          .map(Number);
        const answer = () =>
          sharp({ create: { width, height, channels: 3, background: behaviour.color } })
            .png()
            .toBuffer()
            .then((png) =>
              json(200, {
                created: Math.floor(Date.now() / 1000),
                data: [{ b64_json: png.toString("base64") }],
              }),
            );
        if (behaviour.kind === "hold") heldImages.push(answer);
        else void answer();
        return;
      }

      if (path.endsWith("/audio/speech")) {
        if (typeof body?.input !== "string" || !body.input)
          return json(400, { error: { message: "No input." } });
        res.writeHead(200, { "content-type": "audio/wav" });
        return res.end(speechWav(body.input));
      }

      if (!path.endsWith("/chat/completions")) return json(404, { error: { message: `No route ${path}` } });
      const behaviour = state.chat;
      if (behaviour.kind === "hang") {
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      }
      if (behaviour.kind === "status") {
        return json(behaviour.status, {
          error: { message: "The fake model is having a bad day.", type: "server_error" },
        });
      }
      const brief = briefFrom(body?.messages);
      const content =
        behaviour.kind === "malformed"
          ? '{"caption": "Half a draft and then the model wandered off'
          : JSON.stringify((behaviour.draft ?? defaultDraft)(brief));
      if (body?.stream === true) return streamChat(res, content, brief.topic, body?.model);
      if (state.pace.answerMs > 0) {
        setTimeout(() => answerChat(content), state.pace.answerMs);
        return;
      }
      return answerChat(content);
    });

    /** Chat Completions' JSON answer. */
    function answerChat(content: string) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "chatcmpl-fake",
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: "fake",
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage: {
            ...state.usage,
            total_tokens: state.usage.prompt_tokens + state.usage.completion_tokens,
          },
        }),
      );
    }
  });

  /**
   * Chat Completions streamed as server-sent events, the way OpenAI sends them: `chat.completion.chunk`s of
   * about four characters (a token), the role with the first, then the finish reason, the usage and [DONE].
   */
  function streamChat(res: http.ServerResponse, content: string, topic: string, model = "fake") {
    const tokens = content.match(/[\s\S]{1,4}/g) ?? [""];
    const chunk = (delta: object, finish: string | null = null, usage?: object) =>
      `data: ${JSON.stringify({
        id: "chatcmpl-fake",
        object: "chat.completion.chunk",
        created: Math.floor(Date.now() / 1000),
        model,
        choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }],
        ...(usage ? { usage } : {}),
      })}\n\n`;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const gap = state.pace.tokensPerSecond > 0 ? 1000 / state.pace.tokensPerSecond : 0;
    let next = 0;
    const write = () => {
      if (res.destroyed) return;
      if (next === 0) firstTokens.push({ topic, at: performance.now() });
      if (next < tokens.length) {
        res.write(chunk(next === 0 ? { role: "assistant", content: tokens[0] } : { content: tokens[next] }));
        next += 1;
        if (gap > 0) setTimeout(write, gap);
        else write();
        return;
      }
      const usage = {
        ...state.usage,
        total_tokens: state.usage.prompt_tokens + state.usage.completion_tokens,
      };
      res.end(`${chunk({}, "stop")}${chunk({}, null, usage)}data: [DONE]\n\n`);
    };
    setTimeout(write, state.pace.firstTokenMs);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    state,
    requests,
    chatRequests: () => requests.filter((request) => request.path.endsWith("/chat/completions")),
    speechRequests: () => requests.filter((request) => request.path.endsWith("/audio/speech")),
    imageRequests: () => requests.filter((request) => request.path.endsWith("/images/generations")),
    /** How many image calls `hold` is holding now. */
    heldImages: () => heldImages.length,
    /** Answers every held image call (and answers new ones at once from now on). */
    releaseImages() {
      if (state.image.kind === "hold") state.image = { kind: "png", color: state.image.color };
      for (const answer of heldImages.splice(0)) answer();
    },
    moderationRequests: () => requests.filter((request) => request.path.endsWith("/moderations")),
    firstTokens,
    reset() {
      requests.length = 0;
      state.chat = { kind: "draft" };
      state.flag = null;
      state.moderationStatus = 200;
      state.image = { kind: "png", color: "#12AB34" };
      state.pace = { firstTokenMs: 0, tokensPerSecond: 0, answerMs: 0 };
      firstTokens.length = 0;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type FakeOpenAI = Awaited<ReturnType<typeof startFakeOpenAI>>;
