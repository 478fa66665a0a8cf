"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }),
  );
  // The session is a query too (lib/client/session), refetched every 4 minutes to keep the access token fresh.
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
