import { kitFileRoutes } from "@/lib/brands/kit-file-routes";

export const dynamic = "force-dynamic";

const routes = kitFileRoutes("music");
export const POST = routes.POST;
export const DELETE = routes.DELETE;
