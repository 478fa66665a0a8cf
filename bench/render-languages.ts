import os from "node:os";
import { getMediaStorage } from "../lib/media/storage";
import { localVideoProvider } from "../lib/video/local/local-provider";
import { espeakVoice } from "../lib/video/local/speech-engines";
import { videoMediaPrefix } from "../lib/video/provider";
import { median } from "./measure";
import { cpuSeconds } from "./render";

/**
 * `npx tsx bench/render-languages.ts [--rounds 3]` (`npm run bench:render-languages`): issue 42's render goal.
 * The local renderer (text on gradients, 16:9, burned-in captions through libass with Debian's Noto fonts,
 * the voice in the post's language) renders the same short script in English, Arabic and Japanese, in
 * interleaved rounds. Speech in each language lasts differently, so each render is compared by its cost per
 * second of video (wall and CPU): the goal is an Arabic or a Japanese render at most 1.2× an English one.
 * Prints the figures; copy them to bench/notes.md.
 */
const SCRIPTS: Record<string, string[]> = {
  en: [
    "Fresh beans arrive every Monday from the same three farms we have worked with for years.",
    "We roast them in small batches, so nothing sits on a shelf.",
    "Come in before nine and the first cup of the new blend is on us.",
    "It tastes of cherry, cocoa and a little spice.",
  ],
  ar: [
    "تصل الحبوب الطازجة كل يوم اثنين من المزارع الثلاث نفسها التي نعمل معها منذ سنوات.",
    "نحمصها على دفعات صغيرة حتى لا يبقى شيء على الرف.",
    "تعال قبل التاسعة وسيكون الكوب الأول من المزيج الجديد على حسابنا.",
    "طعمه يشبه الكرز والكاكاو وقليلا من التوابل.",
  ],
  ja: [
    "新鮮な豆が毎週月曜日に、長年付き合いのある三つの農園から届きます。",
    "少量ずつ焙煎するので、棚に置かれたままのものはありません。",
    "九時前にお越しいただくと、新しいブレンドの最初の一杯を無料でどうぞ。",
    "チェリーとカカオ、そして少しスパイスの味がします。",
  ],
};

async function main() {
  const index = process.argv.indexOf("--rounds");
  const rounds = index > 0 ? Number(process.argv[index + 1]) : 3;
  const languages = Object.keys(SCRIPTS);
  const perSecond = new Map<string, { wall: number[]; cpu: number[]; video: number }>(
    languages.map((language) => [language, { wall: [], cpu: [], video: 0 }]),
  );
  const loadBefore = os.loadavg();
  for (let round = 0; round < rounds; round++) {
    // A rotating order, so no language always follows the same one.
    for (let i = 0; i < languages.length; i++) {
      const language = languages[(i + round) % languages.length];
      console.log(`bench: round ${round + 1}/${rounds} ${language}`);
      const jobId = `vjb_benchlang${process.pid}${language}${round}`;
      const started = performance.now();
      const cpuBefore = cpuSeconds();
      const result = await localVideoProvider.render(
        {
          jobId,
          attempt: 1,
          // Twice over: about 20 s of speech in each language.
          script: [...SCRIPTS[language], ...SCRIPTS[language]].join(" "),
          brief: null,
          mode: "regular",
          aspectRatio: "16:9",
          brand: {
            name: "Northwind Coffee",
            language,
            primaryColor: "#3B2F2F",
            secondaryColor: "#E0A458",
            avatarFramesKey: null,
          },
        },
        { signal: new AbortController().signal, onProgress: () => {} },
      );
      const wall = (performance.now() - started) / 1000;
      const cpu = cpuSeconds() - cpuBefore;
      await getMediaStorage().remove(videoMediaPrefix(jobId));
      const entry = perSecond.get(language);
      if (!entry) continue;
      entry.wall.push(wall / result.durationSeconds);
      entry.cpu.push(cpu / result.durationSeconds);
      entry.video = result.durationSeconds;
    }
  }
  const en = perSecond.get("en");
  if (!en) return;
  const lines = [
    `render by caption language: 16:9 text on gradients, ${rounds} rounds, load average ${loadBefore.map((n) => n.toFixed(1)).join(" ")} → ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")}, ${os.cpus().length} cores`,
    "| language (espeak-ng voice) | video s | wall s per video s (median; per round) | CPU s per video s (median) | vs English, wall / CPU (goal ≤ 1.2×) |",
    "|---|---|---|---|---|",
  ];
  for (const [language, entry] of perSecond) {
    lines.push(
      `| ${language} (${espeakVoice(language) ?? "none"}) | ${entry.video.toFixed(1)} | ${median(entry.wall).toFixed(3)}; ${entry.wall.map((v) => v.toFixed(3)).join(" / ")} | ${median(entry.cpu).toFixed(3)} | ${(median(entry.wall) / median(en.wall)).toFixed(2)}× / ${(median(entry.cpu) / median(en.cpu)).toFixed(2)}× |`,
    );
  }
  console.log(lines.join("\n"));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
