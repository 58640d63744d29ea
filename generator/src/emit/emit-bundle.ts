/**
 * rcp.schema.json: the whole protocol as one self-contained root schema (any frame or batch),
 * for users who validate with their own tools. JSON has no comments: the banner is `$comment`.
 */
import { bundleSchema } from "../model/bundle.js";
import { definePlugin } from "../plugin/plugin.js";

export const bundleTarget = definePlugin({
  name: "bundle",
  generate({ model, newFile }) {
    const file = newFile("rcp.schema.json");
    file.json(bundleSchema(model.schema));
    return [file];
  },
});
