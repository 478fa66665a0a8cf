import { eq } from "drizzle-orm";
import type { Db } from "./client";
import { users } from "./schema";

/**
 * The demo account's data. Creating it (which needs password hashing) is `lib/auth/seed-demo.ts`, run on
 * start when SEED_DEMO is on and by `npm run db:seed`.
 */
export const DEMO_LOGIN = { email: "demo@brandstudio.dev", password: "brandstudio-demo" } as const;

export const DEMO_BRAND = {
  name: "Northwind Coffee",
  tone: "warm, upbeat and confident",
  voice:
    "We talk like a friendly barista who knows their craft: short sentences, concrete sensory detail, no jargon.",
  audience: "Busy urban professionals aged 25 to 40 who care where their coffee comes from",
  language: "en",
  languages: ["en"],
  values: ["craft", "fair trade", "community"],
  doList: ["mention the origin of the beans", "invite people into the café", "keep it personal"],
  dontList: ["make health claims", "mock other coffee brands", "use all caps"],
  bannedWords: ["cheap", "guaranteed", "miracle"],
  defaultHashtags: ["#NorthwindCoffee", "#SpecialtyCoffee"],
  primaryColor: "#3B2F2F",
  secondaryColor: "#E0A458",
};

export async function findDemoUser(db: Db) {
  const [user] = await db.select().from(users).where(eq(users.email, DEMO_LOGIN.email));
  return user;
}
