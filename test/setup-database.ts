import { configureDatabaseFromEnv } from "@/lib/server/prepare-database";

// In-process tests reach the database the way the app's entry points do: through the configuration.
configureDatabaseFromEnv();
