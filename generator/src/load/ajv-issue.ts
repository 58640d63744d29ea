/**
 * Turns the errors of one ajv run into the single most precise `file: pointer: problem`, for a
 * schema's author: where in the file, what the meta-schema explains. What ajv says about the
 * failed keyword is worded by the runtime, as for every validator's issue.
 */
import type { ErrorObject } from "ajv/dist/2020.js";
import { issueMessage } from "@rcp-gen/runtime/testing";
import { appendPointer } from "./json-pointer.js";
import { SchemaFolderError } from "./schema-folder-error.js";

/**
 * The deepest error wins; among equally deep ones the last, which is the combinator
 * (oneOf, if/then) that explains its branches. `x-problem` in a meta-schema rewords it.
 */
export function issueToError(file: string, errors: readonly ErrorObject[]): SchemaFolderError {
  const chosen = errors.reduce((best, error) => (error.instancePath.length >= best.instancePath.length ? error : best));
  const explanation = (chosen.parentSchema as { "x-problem"?: string } | undefined)?.["x-problem"];
  const params = chosen.params as Record<string, unknown>;
  switch (chosen.keyword) {
    case "additionalProperties": {
      const key = String(params["additionalProperty"]);
      const allowed = Object.keys((chosen.parentSchema as { properties?: object }).properties ?? {}).join(", ");
      const where = chosen.instancePath.endsWith("/x-rcp") ? "x-rcp key" : "key";
      return new SchemaFolderError(
        file,
        appendPointer(chosen.instancePath, key),
        `unknown ${where} "${key}" (allowed: ${allowed})`,
      );
    }
    case "required": {
      const missing = `missing required key "${String(params["missingProperty"])}"`;
      return new SchemaFolderError(file, chosen.instancePath, explanation ? `${missing}: ${explanation}` : missing);
    }
    case "discriminator": {
      const tag = String(params["tag"]);
      const problem = explanation ?? issueMessage(chosen);
      return new SchemaFolderError(file, appendPointer(chosen.instancePath, tag), problem);
    }
    default: {
      const got = chosen.data === undefined ? "" : ` (got ${JSON.stringify(chosen.data)})`;
      return new SchemaFolderError(file, chosen.instancePath, `${explanation ?? issueMessage(chosen)}${got}`);
    }
  }
}
