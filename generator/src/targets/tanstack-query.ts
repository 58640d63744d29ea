/**
 * tanstack-query.ts (the `tanstack-query` target, off by default): TanStack Query options for
 * each method a client calls, on `@tanstack/query-core` so every framework adapter takes them
 * (`useQuery(retrieveQueryOptions(client, params))` in React). A method whose schema says it
 * writes (`x-rcp` `writes`) gets mutation options; any other a query. A streaming query is
 * built on query-core's `streamedQuery`: its data grows with each progress frame's partial and
 * ends with the result (the runtime's StreamedData), and cancelling the query aborts the call,
 * which cancels it on the server (§7.14). Each function takes any client with the member it
 * calls, so an `RcpClient` and a `connectHttpWith` client both do.
 */
import { userMethods } from "../model/model.js";
import { targetCode } from "./builtin.js";
import { methodTypes } from "./shared/method-types.js";

/** The package generated code imports: an optional peer of the user's project, needed only with this target. */
const QUERY_CORE = "@tanstack/query-core";

export const tanstackQueryTarget = targetCode({
  generate({ model, newFile }) {
    const file = newFile("tanstack-query.ts");
    const client = file.import("RcpClientBase", file.relative("client.ts"), { typeOnly: true });
    for (const method of userMethods(model)) {
      const types = methodTypes(file, method);
      const required = method.params.schema["required"];
      const params = `params: ${types.params}${Array.isArray(required) && required.length > 0 ? "" : " = {}"}`;
      const wire = JSON.stringify(method.method);
      const name = method.camelName;
      file.print("");
      if (method.writes) {
        file.print(file.jsDoc(`Mutation options for ${method.method}: its schema says it writes.`));
        file.block(`export function ${name}MutationOptions(client: Pick<${client}, "${name}">) {`, () =>
          file.block(
            "return {",
            () => {
              file.print(`mutationKey: ["rcp", ${wire}] as const,`);
              file.print(`mutationFn: (params: ${types.params}) => client.${name}(params),`);
            },
            "};",
          ),
        );
        continue;
      }
      const context = file.import("QueryFunctionContext", QUERY_CORE, { typeOnly: true });
      if (!method.streaming) {
        file.print(file.jsDoc(`Query options for ${method.method}; cancelling the query cancels the call (§7.14).`));
        file.block(`export function ${name}QueryOptions(client: Pick<${client}, "${name}">, ${params}) {`, () =>
          file.block(
            "return {",
            () => {
              file.print(`queryKey: ["rcp", ${wire}, params] as const,`);
              file.print(`queryFn: ({ signal }: ${context}) => client.${name}(params, { signal }),`);
            },
            "};",
          ),
        );
        continue;
      }
      const streamed = file.import("experimental_streamedQuery", QUERY_CORE);
      const typeArguments = `${types.result}, ${types.partial}`;
      file.print(
        file.jsDoc(
          `Query options for ${method.method}, streamed: the data grows with each progress frame's partial and ends with the result; cancelling the query cancels the call (§7.14).`,
        ),
      );
      file.block(`export function ${name}QueryOptions(client: Pick<${client}, "${name}Stream">, ${params}) {`, () =>
        file.block(
          "return {",
          () => {
            file.print(`queryKey: ["rcp", ${wire}, params] as const,`);
            file.block(
              `queryFn: ${streamed}({`,
              () => {
                file.print(`streamFn: ({ signal }: ${context}) => client.${name}Stream(params, { signal }),`);
                file.print(`reducer: ${file.runtime("foldStreamEvent")}<${typeArguments}>,`);
                file.print(`initialValue: ${file.runtime("emptyStreamedData")}<${typeArguments}>(),`);
              },
              "}),",
            );
          },
          "};",
        ),
      );
    }
    return [file];
  },
});
