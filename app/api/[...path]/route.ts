import { withApi } from "@/lib/api/handler";
import { ApiError } from "@/lib/errors/api-error";

// Any /api path no route claims answers in the error envelope rather than Next's HTML 404 page.
const unknownPath = withApi(
  async (req) => {
    throw new ApiError("not_found", `No operation at ${req.method} ${req.nextUrl.pathname}.`);
  },
  { operation: "unknown-path" },
);

export {
  unknownPath as DELETE,
  unknownPath as GET,
  unknownPath as PATCH,
  unknownPath as POST,
  unknownPath as PUT,
};
