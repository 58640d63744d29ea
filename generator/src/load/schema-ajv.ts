/** The ajv configuration of a schema folder (loader.ts folderAjv): strict about typos, open about everything §4.6 leaves open. */
import { Ajv2020, type Options } from "ajv/dist/2020.js";
import type { LoadedSchemaFolder } from "./loader.js";
import { walkSchema } from "./schema-walk.js";

export function newFolderAjv(folder: LoadedSchemaFolder, extra: Options): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    // Protocol objects are deliberately open and loosely typed (§4.6); only typos are errors.
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    // A named vendor capability (`x-acme`) beside the open `^x-` pattern is intended (§6.2).
    allowMatchingProperties: true,
    // `format` is an annotation in 2020-12; the protocol does not rely on format checks.
    validateFormats: false,
    allErrors: false,
    // Every file already passed the 2020-12 meta-schema in the loader (meta-check.ts); checking
    // again here would compile that meta-schema a second time in each run.
    validateSchema: false,
    ...extra,
  });
  for (const keyword of annotationKeywords(folder)) ajv.addKeyword({ keyword });
  for (const document of folder.files.values()) ajv.addSchema(document);
  return ajv;
}

/** Every `x-` annotation used in the folder, so strict mode accepts them. */
function annotationKeywords(folder: LoadedSchemaFolder): string[] {
  const keywords = new Set<string>();
  for (const document of folder.files.values())
    walkSchema(document, (schema) => {
      if (typeof schema === "object" && schema !== null)
        for (const key of Object.keys(schema)) if (key.startsWith("x-")) keywords.add(key);
    });
  return [...keywords].sort();
}
