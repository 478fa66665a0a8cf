import { operations } from "@/lib/contracts";
import { jsonSchemaOf } from "./contract-fields";

/**
 * What a card's test panel needs from the operation's contract to build a request: whether it sends a
 * token, whether the body is a multipart upload and which fields are files. Worked out on the server when
 * the card page is rendered, so the panel ships no schema code.
 */
export type PanelContract = { auth: "bearer" | "none"; multipart: boolean; fileFields: string[] };

export function panelContractOf(cardId: string): PanelContract | null {
  const operation = operations.find((candidate) => candidate.id === cardId);
  if (!operation) return null;
  const multipart = operation.bodyContentType === "multipart/form-data";
  let fileFields: string[] = [];
  if (operation.body) {
    // Body fields the contract marks as files (`format: "binary"`): the panel offers a file picker for each.
    const { root, resolve } = jsonSchemaOf(operation.body, "input");
    fileFields = Object.entries(root.properties ?? {})
      .filter(([, property]) => resolve(property).format === "binary")
      .map(([name]) => name);
  }
  return { auth: operation.auth, multipart, fileFields };
}
