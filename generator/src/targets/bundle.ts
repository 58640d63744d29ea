/**
 * rcp.schema.json: the whole protocol as one self-contained root schema (any frame or batch),
 * for users who validate with their own tools. JSON has no comments: the banner is `$comment`.
 */
import { bundleSchema } from "../model/bundle.js";
import { targetCode } from "./builtin.js";

export const bundleTarget = targetCode({
  generate(context) {
    const file = context.newFile("rcp.schema.json");
    file.json(bundleSchema(context.model.schema));
    return [file];
  },
});
