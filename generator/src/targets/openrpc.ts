/**
 * openrpc.json: the protocol as an OpenRPC 1.3 document, JSON-RPC's standard description
 * that playgrounds and docs generators read. Each method with its params (by name, one
 * content descriptor per member), result and the errors the runtime answers for it; its
 * `x-rcp` annotation as the `x-rcp` extension, with streaming stated as `x-rcp-progress` (the
 * progress notification and the schema of its `partial`); notifications under
 * `x-rcp-notifications`. Schemas are JSON Schema with every `$ref` rewritten to
 * `#/components/schemas/<Name>` (names as in types.ts), and a `$ref` beside constraints
 * wrapped in `allOf`, as draft-07 readers ignore what sits beside a `$ref`.
 */
import { isJsonObject } from "../load/json-pointer.js";
import type { RcpMethod, RcpModel } from "../model/model.js";
import { methodRules } from "../model/descriptor.js";
import { targetCode } from "./builtin.js";
import { examplesOf, type ExampleSet } from "./shared/examples.js";
import { methodErrors } from "./shared/method-errors.js";
import { ReferencedSchemas } from "./shared/referenced-schemas.js";
import { dereference } from "./shared/schema-names.js";

/** The OpenRPC version written. */
export const openrpcVersion = "1.3.2";

export const openrpcTarget = targetCode({
  generate({ model, newFile, examples }) {
    const file = newFile("openrpc.json");
    file.json(openrpcDocument(model, examples), "x-generated");
    return [file];
  },
});

export function openrpcDocument(model: RcpModel, examples: ExampleSet | undefined): object {
  const schemas = new ReferencedSchemas(model, "#/components/schemas/");
  const progress = model.notifications.find((notification) => notification.role === "progress");
  const methods = model.methods.map((method) => methodObject(model, method, schemas, progress?.method, examples));
  const notifications = model.notifications.map((notification) => ({
    name: notification.method,
    ...(notification.description === undefined ? {} : { description: notification.description }),
    direction: notification.direction,
    ...(notification.role === undefined ? {} : { role: notification.role }),
    ...(notification.spec === undefined ? {} : { spec: notification.spec }),
    params: schemas.refTo(notification.params),
  }));
  return {
    openrpc: openrpcVersion,
    info: {
      title: model.title,
      version: String(model.version),
      description: `${model.title}: ${model.methods.length} methods and ${model.notifications.length} notifications, over JSON-RPC 2.0 (stdio or HTTP with Server-Sent Events for progress).`,
    },
    methods,
    components: {
      schemas: schemas.all(),
      errors: Object.fromEntries(
        model.errors.map((error) => [error.symbol, { code: error.code, message: error.message }]),
      ),
    },
    "x-rcp-notifications": notifications,
    "x-rcp-log-levels": model.logLevels,
  };
}

function methodObject(
  model: RcpModel,
  method: RcpMethod,
  schemas: ReferencedSchemas,
  progressNotification: string | undefined,
  examples: ExampleSet | undefined,
): object {
  const params = dereference(model, { file: method.params.file, pointer: method.params.pointer });
  const members =
    isJsonObject(params.schema) && isJsonObject(params.schema["properties"]) ? params.schema["properties"] : {};
  const required =
    isJsonObject(params.schema) && Array.isArray(params.schema["required"]) ? params.schema["required"] : [];
  const descriptors = Object.entries(members).map(([name, schema]) => {
    const description = isJsonObject(schema) && typeof schema.description === "string" ? schema.description : undefined;
    return {
      name,
      ...(description === undefined ? {} : { description }),
      required: required.includes(name),
      schema: schemas.convert(params.at.file, schema),
    };
  });
  const example = exampleFor(method, examples);
  return {
    name: method.method,
    ...(method.title !== undefined && method.title !== method.method ? { summary: method.title } : {}),
    ...(method.description === undefined ? {} : { description: method.description }),
    paramStructure: "by-name",
    params: descriptors,
    result: { name: `${method.camelName}Result`, schema: schemas.refTo(method.result) },
    errors: methodErrors(model, method).map(({ error }) => ({ $ref: `#/components/errors/${error.symbol}` })),
    ...(example === undefined ? {} : { examples: [example] }),
    "x-rcp": annotationOf(method),
    ...(method.streaming
      ? {
          "x-rcp-progress": {
            ...(progressNotification === undefined ? {} : { notification: progressNotification }),
            ...(method.partial === undefined ? {} : { partial: schemas.refTo(method.partial) }),
          },
        }
      : {}),
  };
}

/** The method's x-rcp annotation as the runtime reads it, empty lists left out. */
function annotationOf(method: RcpMethod): object {
  const annotation = { ...methodRules(method), spec: method.spec };
  return Object.fromEntries(Object.entries(annotation).filter(([, value]) => value !== undefined));
}

/** An example pairing from the first params and result examples of the method, when there are both. */
function exampleFor(method: RcpMethod, examples: ExampleSet | undefined): object | undefined {
  const [request] = examplesOf(method.params, examples);
  const [response] = examplesOf(method.result, examples);
  if (request === undefined || response === undefined) return undefined;
  return {
    name: `${method.method} example`,
    ...(request.description === undefined ? {} : { description: request.description }),
    params: Object.entries(isJsonObject(request.value) ? request.value : {}).map(([name, value]) => ({ name, value })),
    result: { name: "result", value: response.value },
  };
}
