import type { CreateBrandInput, UpdateBrandInput } from "@/lib/contracts/brands";
import { ApiError } from "@/lib/errors/api-error";

const conflict = (language: string, main: string) =>
  new ApiError("invalid_request", "The main language is the first of languages.", {
    details: [
      {
        path: "language",
        message: `language "${language}" is not the first of languages ("${main}"). Send one of them, or make them agree.`,
      },
    ],
  });

/**
 * A brand's `language` and `languages` (DESIGN §11) agree: language is always languages[0]. A client that
 * knows only `language` keeps working: it sets the main language.
 */
export function languagesOnCreate(input: Pick<CreateBrandInput, "language" | "languages">) {
  if (input.languages) {
    if (input.language && input.language !== input.languages[0]) {
      throw conflict(input.language, input.languages[0]);
    }
    return { language: input.languages[0], languages: input.languages };
  }
  const language = input.language ?? "en";
  return { language, languages: [language] };
}

/** The same on update: `language` alone becomes the main language, the brand's other languages stay. */
export function languagesOnUpdate(
  input: Pick<UpdateBrandInput, "language" | "languages">,
  current: { languages: string[] },
): { language?: string; languages?: string[] } {
  if (input.languages) return languagesOnCreate(input);
  if (!input.language) return {};
  const language = input.language;
  return { language, languages: [language, ...current.languages.filter((tag) => tag !== language)] };
}

/** A language the brand speaks, or a 400 naming the field and the brand's languages. */
export function assertBrandLanguage(brand: { languages: string[] }, language: string, path: string) {
  if (brand.languages.includes(language)) return;
  throw new ApiError("invalid_request", `The brand does not speak "${language}".`, {
    details: [
      {
        path,
        message: `"${language}" is not one of the brand's languages (${brand.languages.join(", ")}). Add it to the brand first.`,
      },
    ],
  });
}
