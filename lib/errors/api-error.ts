import { ERROR_CODES, type ErrorCode } from "./error-codes";

export type ErrorDetails = Record<string, unknown> | { path: string; message: string }[];

/** The one error type the API throws; the handler wrapper turns it into the envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly retryable: boolean;
  readonly details?: ErrorDetails;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { details?: ErrorDetails; headers?: Record<string, string>; retryable?: boolean } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_CODES[code].status;
    this.retryable = options.retryable ?? ERROR_CODES[code].retryable;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

export const notFound = (what = "Resource") => new ApiError("not_found", `${what} not found.`);
