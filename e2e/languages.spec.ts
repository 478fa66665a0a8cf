import { expect, test } from "@playwright/test";
import { expectAxeClean, shoot, signUpMarketer } from "./support/publishing-pages";

const TOPIC = "Our autumn seasonal blend arrives in every café next week";
const SPANISH_EDIT = "¡Nuestra mezcla de otoño llega la semana que viene a todas nuestras cafeterías!";

test("a brand with English and Spanish channels writes both, edits the Spanish one, and publishes each to its own channel", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const headers = await signUpMarketer(page, "languages", "Language Marketer");
  const telegramUrl = process.env.E2E_TELEGRAM_URL as string;
  const fakeChannel = async (title: string, username: string) =>
    (await (
      await page.request.post(`${telegramUrl}/__fake/channels`, { data: { title, username } })
    ).json()) as {
      botToken: string;
      chatId: number;
    };
  const stamp = Date.now().toString(36);
  const english = await fakeChannel("Lingua News", `lingua_en_${stamp}`);
  const spanish = await fakeChannel("Lingua Noticias", `lingua_es_${stamp}`);

  const brand = await page.request.post("/api/brands", {
    headers,
    data: {
      name: "Lingua Coffee",
      tone: "warm and upbeat",
      voice: "short sentences",
      languages: ["en", "es"],
    },
  });
  expect(brand.status()).toBe(201);
  const { brandId } = await brand.json();
  for (const channel of [english, spanish]) {
    const connected = await page.request.post("/api/channels", {
      headers,
      data: { brandId, channel: "telegram", botToken: channel.botToken, chatId: String(channel.chatId) },
    });
    expect(connected.status()).toBe(201);
  }

  // Brand settings: the Spanish channel is set to speak Spanish.
  await page.goto(`/brands/${brandId}`);
  const panel = page.getByTestId("channels-panel");
  const spanishRow = panel.getByRole("listitem").filter({ hasText: "Lingua Noticias" });
  await spanishRow.getByLabel("Language").selectOption("es");
  await expect(spanishRow.getByLabel("Language")).toHaveValue("es");
  await expect(
    panel.getByRole("listitem").filter({ hasText: "Lingua News" }).getByLabel("Language"),
  ).toHaveValue("en");
  await expectAxeClean(page, "brand settings with channel languages");
  await shoot(page, "brand-channel-languages");

  // The studio writes the brief in both languages at once.
  await page.goto("/studio");
  await page.getByText("Telegram", { exact: true }).click();
  await page.getByLabel("Topic").fill(TOPIC);
  await page.getByLabel("Goal").selectOption("announcement");
  const languages = page.getByRole("group", { name: "Languages" });
  await expect(languages.getByRole("checkbox", { name: /English/ })).toBeChecked();
  await expect(languages.getByRole("checkbox", { name: /Español/ })).toBeChecked();
  await shoot(page, "studio-brief-languages");
  await page.getByRole("button", { name: "Generate draft" }).click();
  await expect(page).toHaveURL(/\/studio\/pst_/, { timeout: 30_000 });

  const switcher = page.getByRole("tablist", { name: "Language" });
  await expect(switcher.getByRole("tab")).toHaveText(["English", "Español"]);
  await expect(switcher.getByRole("tab", { name: "English" })).toHaveAttribute("aria-selected", "true");
  await expectAxeClean(page, "studio with two languages");
  await shoot(page, "studio-languages");

  // Edit the Spanish version and save it.
  await switcher.getByRole("tab", { name: "Español" }).click();
  await expect(switcher.getByRole("tab", { name: "Español" })).toHaveAttribute("aria-selected", "true");
  const caption = page.getByLabel("Caption", { exact: true });
  await caption.fill(SPANISH_EDIT);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved");
  const englishCaption = (
    await page.getByRole("listitem").filter({ hasText: "English · en" }).locator("p[lang=en]").textContent()
  )?.trim();
  expect(englishCaption).toBeTruthy();

  // Publish all languages: each version goes to the channel of its language only.
  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Publish all languages" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Español: sent to its channel" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "English: sent to its channel" })).toBeVisible();

  const messagesTo = async (chatId: number) =>
    (
      (await (await page.request.get(`${telegramUrl}/__fake/state`)).json()).messages as {
        chatId: unknown;
        text: string;
      }[]
    ).filter((message) => String(message.chatId) === String(chatId));
  await expect.poll(async () => (await messagesTo(spanish.chatId)).length, { timeout: 30_000 }).toBe(1);
  await expect.poll(async () => (await messagesTo(english.chatId)).length, { timeout: 30_000 }).toBe(1);
  const [toSpanish] = await messagesTo(spanish.chatId);
  const [toEnglish] = await messagesTo(english.chatId);
  expect(toSpanish.text).toContain(SPANISH_EDIT);
  expect(toEnglish.text).not.toContain("otoño");
  expect(toEnglish.text).toContain((englishCaption ?? "").split("\n")[0].slice(0, 30));

  // The calendar shows each publication's language.
  await page.goto("/calendar");
  const items = page.getByTestId("calendar-language");
  await expect(items).toHaveCount(2);
  expect((await items.allTextContents()).sort()).toEqual(["en", "es"]);
});
