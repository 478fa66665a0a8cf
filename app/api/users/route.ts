import { withApi } from "@/lib/api/handler";
import { enforceRateLimit } from "@/lib/api/rate-limit";
import { readJson } from "@/lib/api/read-request";
import { clientIp } from "@/lib/auth/client-ip";
import { createUser } from "@/lib/auth/users";
import { config } from "@/lib/config";
import { signUp, signUpBody } from "@/lib/contracts/users";
import { ApiError } from "@/lib/errors/api-error";

export const POST = withApi(
  async (req) => {
    if (!config.allowSignup) throw new ApiError("not_found", "Sign-up is turned off on this server.");
    const input = await readJson(req, signUpBody);
    const limitHeaders = await enforceRateLimit({ bucket: "signup", subject: clientIp(req.headers) });
    const user = await createUser(input);
    return Response.json(
      { userId: user.id, email: user.email, name: user.name },
      { status: 201, headers: { Location: `/api/users/${user.id}`, ...limitHeaders } },
    );
  },
  { docId: signUp.id },
);
