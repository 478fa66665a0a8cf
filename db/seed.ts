import { count, eq } from "drizzle-orm";
import { hashPassword } from "@/lib/auth/password";
import { newId } from "@/lib/ids";
import type { Db } from "./client";
import { brandMembers, brands, users } from "./schema";

export const DEMO_LOGIN = { email: "demo@brandstudio.dev", password: "brandstudio-demo" } as const;

export const DEMO_BRAND = {
  name: "Northwind Coffee",
  tone: "warm, upbeat and confident",
  voice:
    "We talk like a friendly barista who knows their craft: short sentences, concrete sensory detail, no jargon.",
  audience: "Busy urban professionals aged 25 to 40 who care where their coffee comes from",
  language: "en",
  values: ["craft", "fair trade", "community"],
  doList: ["mention the origin of the beans", "invite people into the café", "keep it personal"],
  dontList: ["make health claims", "mock other coffee brands", "use all caps"],
  bannedWords: ["cheap", "guaranteed", "miracle"],
  defaultHashtags: ["#NorthwindCoffee", "#SpecialtyCoffee"],
  primaryColor: "#3B2F2F",
  secondaryColor: "#E0A458",
};

/** Creates the demo user and brand on an empty database. Safe to call on every start. */
export async function seedDemo(db: Db) {
  const [{ value: userCount }] = await db.select({ value: count() }).from(users);
  if (userCount > 0) return { created: false };

  const passwordHash = await hashPassword(DEMO_LOGIN.password);
  await db.transaction(async (tx) => {
    const userId = newId("usr");
    const brandId = newId("brd");
    await tx
      .insert(users)
      .values({ id: userId, email: DEMO_LOGIN.email, name: "Demo Marketer", passwordHash });
    await tx.insert(brands).values({ id: brandId, ...DEMO_BRAND });
    await tx.insert(brandMembers).values({ brandId, userId, role: "owner" });
  });
  return { created: true };
}

export async function findDemoUser(db: Db) {
  const [user] = await db.select().from(users).where(eq(users.email, DEMO_LOGIN.email));
  return user;
}
