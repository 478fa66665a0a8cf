import { withApi } from "@/lib/api/handler";
import { readUploadFile } from "@/lib/api/read-upload";
import * as contract from "@/lib/contracts/brands";
import { deleteBrandKitFile, uploadBrandLogo, uploadBrandMusic } from "./brand-kit-files";
import { toBrandResponse } from "./brand-response";

const KINDS = {
  logo: {
    upload: contract.uploadLogo,
    remove: contract.deleteLogo,
    limits: contract.LOGO_LIMITS,
    what: "The logo",
    save: uploadBrandLogo,
  },
  music: {
    upload: contract.uploadMusic,
    remove: contract.deleteMusic,
    limits: contract.MUSIC_LIMITS,
    what: "The music track",
    save: uploadBrandMusic,
  },
} as const;

/** The routes of a brand kit file (POST uploads it as multipart, DELETE removes it): the logo's and the music's. */
export function kitFileRoutes(kind: keyof typeof KINDS) {
  const { upload, remove, limits, what, save } = KINDS[kind];
  return {
    POST: withApi(upload, async ({ req, principal, params: { brandId } }) => {
      const { bytes } = await readUploadFile(req, {
        field: contract.KIT_UPLOAD_FIELD,
        maxBytes: limits.maxBytes,
        what,
      });
      const { brand, role } = await save({ principal, brandId, file: bytes });
      return Response.json(await toBrandResponse(brand, role));
    }),
    DELETE: withApi(remove, async ({ principal, params: { brandId } }) => {
      const { brand, role } = await deleteBrandKitFile({ principal, brandId, kind });
      return Response.json(await toBrandResponse(brand, role));
    }),
  };
}
